/**
 * A Shared Signals receiver an API team can copy (docs/signals.md#a-receiver-for-your-api): it finds
 * Tollgate's transmitter configuration, creates its stream with a client_credentials token (scope
 * `ssf`), and takes the security event tokens Tollgate pushes (RFC 8935): each is verified with the
 * JWK Set (jose), answered 202, and a CAEP session-revoked or credential-change drops the access
 * tokens of that user the API had cached, so that the next request is checked afresh.
 *
 *   node dist/examples/signals-receiver.js            # the demo `api2` on http://127.0.0.1:5182/events
 *   ISSUER=… CLIENT_ID=… CLIENT_SECRET=… PORT=… node dist/examples/signals-receiver.js
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';

const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
const MAX_SET_BYTES = 64 * 1024;

export interface SignalsReceiverOptions {
  readonly issuer: string;
  readonly port: number;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Called with each event received, e.g. to log it. */
  readonly onEvent?: (eventType: string, subject: string | undefined) => void;
}

/** What the API caches: access tokens it verified, by the user (`sub`) they were issued for. */
export class VerifiedTokenCache {
  private readonly bySubject = new Map<string, Set<string>>();

  add(subject: string, token: string): void {
    this.bySubject.set(subject, (this.bySubject.get(subject) ?? new Set()).add(token));
  }

  has(token: string): boolean {
    return [...this.bySubject.values()].some((tokens) => tokens.has(token));
  }

  /** The user's session ended or their credentials changed: their tokens are checked again next time. */
  dropSubject(subject: string): void {
    this.bySubject.delete(subject);
  }
}

export interface SignalsReceiver {
  readonly url: string;
  readonly streamId: string;
  readonly tokens: VerifiedTokenCache;
  /** The events received, newest last, as `[event type, subject]`. */
  readonly received: (readonly [string, string | undefined])[];
  close(): Promise<void>;
}

interface SetError {
  readonly status: number;
  readonly err: string;
  readonly description: string;
}

export async function startSignalsReceiver(options: SignalsReceiverOptions): Promise<SignalsReceiver> {
  const configuration = await json(`${options.issuer}/.well-known/ssf-configuration`);
  if (configuration.issuer !== options.issuer) throw new Error('the transmitter configuration names another issuer');
  const keys = createRemoteJWKSet(new URL(String(configuration.jwks_uri)));
  const tokens = new VerifiedTokenCache();
  const received: (readonly [string, string | undefined])[] = [];
  // Tollgate sends this with every push (SSF 1.0 §6.1.1): a push without it is not Tollgate's.
  const pushSecret = `Bearer ${randomBytes(32).toString('base64url')}`;

  const server = createServer((request, response) => {
    receive(request).then(
      () => response.writeHead(202).end(),
      (error: SetError) =>
        response.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify({ err: error.err, description: error.description })),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  /** RFC 8935 §2: the SET is the body, `application/secevent+jwt`; §2.3: a refused one gets 400 and why. */
  async function receive(request: IncomingMessage): Promise<void> {
    if (request.method !== 'POST' || request.url !== '/events') throw { status: 404, err: 'invalid_request', description: 'not found' };
    if (!sameSecret(request.headers.authorization ?? '', pushSecret)) throw { status: 401, err: 'authentication_failed', description: 'wrong authorization' };
    if (request.headers['content-type'] !== 'application/secevent+jwt') throw { status: 400, err: 'invalid_request', description: 'not a SET' };
    const set = await body(request);
    let payload;
    try {
      ({ payload } = await jwtVerify(set, keys, { issuer: options.issuer, audience: options.clientId, typ: 'secevent+jwt' }));
    } catch (error) {
      const err = error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud' ? 'invalid_audience' : 'invalid_key';
      throw { status: 400, err, description: 'the SET did not verify' };
    }
    // sub_id is the user (`iss_sub`), or the stream itself for a verification event (SSF 1.0 §8.1.4), which only shows that the stream works.
    const subject = (payload.sub_id as { sub?: string } | undefined)?.sub;
    for (const eventType of Object.keys((payload.events as object | undefined) ?? {})) {
      received.push([eventType, subject]);
      options.onEvent?.(eventType, subject);
      if ((eventType === SESSION_REVOKED || eventType === CREDENTIAL_CHANGE) && subject !== undefined) tokens.dropSubject(subject);
    }
  }

  const streamId = await createStream(options, configuration, `${url}/events`, pushSecret);
  return { url, streamId, tokens, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** SSF 1.0 §8.1.1.1: the receiver's stream, pushed to `endpoint`; replaced if it has one already (409). */
async function createStream(options: SignalsReceiverOptions, configuration: Record<string, unknown>, endpoint: string, pushSecret: string): Promise<string> {
  const tokenResponse = await json(`${options.issuer}/connect/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'ssf' }).toString(),
  });
  const headers = { authorization: `Bearer ${String(tokenResponse.access_token)}`, 'content-type': 'application/json' };
  const stream = {
    delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: endpoint, authorization_header: pushSecret },
    events_requested: [SESSION_REVOKED, CREDENTIAL_CHANGE],
    description: `${options.clientId} (examples/signals-receiver.ts)`,
  };
  const endpointUrl = String(configuration.configuration_endpoint);
  const created = await fetch(endpointUrl, { method: 'POST', headers, body: JSON.stringify(stream) });
  if (created.status === 201) return String(((await created.json()) as Record<string, unknown>).stream_id);
  if (created.status !== 409) throw new Error(`creating the stream failed: ${created.status} ${await created.text()}`);
  const [existing] = (await (await fetch(endpointUrl, { headers })).json()) as { stream_id: string }[];
  await json(endpointUrl, { method: 'PUT', headers, body: JSON.stringify({ ...stream, stream_id: existing.stream_id }) });
  return existing.stream_id;
}

async function json(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_SET_BYTES) throw { status: 400, err: 'invalid_request', description: 'too large' };
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

if (require.main === module) {
  const env = process.env;
  startSignalsReceiver({
    issuer: env.ISSUER ?? 'http://localhost:5000',
    port: Number(env.PORT ?? 5182),
    clientId: env.CLIENT_ID ?? 'api2',
    clientSecret: env.CLIENT_SECRET ?? 'api2-secret',
    onEvent: (eventType, subject) => console.log(`${eventType.slice(eventType.lastIndexOf('/') + 1)}${subject === undefined ? '' : ` for sub ${subject}`}`),
  }).then(
    (receiver) => console.log(`Signals receiver on ${receiver.url}/events, stream ${receiver.streamId}`),
    (error: Error) => {
      console.error(`Signals receiver failed to start: ${error.message}`);
      process.exit(1);
    },
  );
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import type { OutboundAddressPolicy } from './outbound-address.policy';

/** A fetch Tollgate refused or could not complete; `message` is safe to show (no secrets in it). */
export class OutboundFetchError extends Error {}

export interface OutboundFetchLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export interface FetchedResource {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * GETs what a client names (its metadata document, its JWK Set) without letting the client aim
 * Tollgate at internal services (docs/agents.md#ssrf): every address a host name resolves to must
 * be one the policy allows, checked after DNS resolution (undici's connector with a filtering
 * `lookup`) and again on the connected socket; an IP literal is checked before connecting. No
 * redirect is followed, the whole exchange has a deadline, and the body a size limit.
 */
export class OutboundFetcher {
  private readonly agent: Agent;

  constructor(
    private readonly policy: OutboundAddressPolicy,
    private readonly limits: OutboundFetchLimits,
  ) {
    const connect = buildConnector({ timeout: limits.timeoutMs, lookup: this.lookup });
    this.agent = new Agent({
      keepAliveTimeout: 1000,
      connect: (options, callback) =>
        connect(options, (error, socket) => {
          if (error) return callback(error, null);
          const peer = socket.remoteAddress;
          if (peer === undefined || !this.policy.allows(peer)) {
            socket.destroy();
            return callback(new OutboundFetchError('the host is not at a public address'), null);
          }
          callback(null, socket);
        }),
    });
  }

  async get(url: string, accept: string, maxBytes = this.limits.maxBytes): Promise<FetchedResource> {
    const { hostname } = new URL(url);
    const literal = hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !this.policy.allows(literal)) throw new OutboundFetchError('the host is not at a public address');
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    try {
      const response = await request(url, { method: 'GET', dispatcher: this.agent, headers: { accept }, signal });
      if (response.statusCode >= 300 && response.statusCode < 400) {
        await response.body.dump();
        throw new OutboundFetchError(`the URL answered with a redirect (${response.statusCode}), which is not followed`);
      }
      const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, [value ?? ''].flat().join(', ')]));
      const body = await readLimited(response.body, Number(headers['content-length'] ?? 0), maxBytes);
      return { status: response.statusCode, headers, body };
    } catch (error) {
      if (error instanceof OutboundFetchError) throw error;
      if (signal.aborted) throw new OutboundFetchError(`the URL did not answer within ${this.limits.timeoutMs} ms`);
      throw new OutboundFetchError(`the URL could not be fetched (${describe(error)})`);
    }
  }

  /**
   * POSTs `body` under the same rules (docs/signals.md#delivery: logout tokens, SETs) and returns the
   * status; the answer's body is read up to 4 KiB and dropped, by undici's `dump`, which listens for
   * the error of a body it destroys.
   */
  async post(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<{ readonly status: number }> {
    const literal = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !this.policy.allows(literal)) throw new OutboundFetchError('the host is not at a public address');
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    try {
      const response = await request(url, { method: 'POST', dispatcher: this.agent, headers, body, signal });
      await response.body.dump({ limit: 4096 });
      return { status: response.statusCode };
    } catch (error) {
      if (signal.aborted) throw new OutboundFetchError(`the URL did not answer within ${this.limits.timeoutMs} ms`);
      throw new OutboundFetchError(`the URL could not be reached (${describe(error)})`);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Resolves as `dns.lookup` does, refusing the host when any of its addresses is not allowed. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0 || addresses.some(({ address }) => !this.policy.allows(address))) {
        return callback(new OutboundFetchError('the host is not at a public address'), '', 0);
      }
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The body as text, at most `maxBytes`. A body not read to its end is handed to undici's `dump`,
 * which listens for the error undici emits when it destroys an unread body: destroyed unheard, that
 * error would end the process.
 */
async function readLimited(body: Dispatcher.ResponseData['body'], declared: number, maxBytes: number): Promise<string> {
  const tooLarge = () => new OutboundFetchError(`the response is larger than ${maxBytes} bytes`);
  if (declared > maxBytes) {
    await body.dump({ limit: maxBytes });
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (too large, or an error) destroys the body with the iterator listening.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof OutboundFetchError) return cause.message;
  const code = (cause as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'connection failed';
}

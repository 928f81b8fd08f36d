import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyDatabase, ISSUER, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { ensureBuilt, freePort, ROOT, runToExit, spawnService, startService, stop } from '../support/built-service';
import { basic, postForm, request, requestToken } from '../support/http';
import { startMetadataDocumentServer, type MetadataDocumentServer } from '../support/metadata-document-server';

/** A span as OTLP/HTTP JSON carries it, its attributes flattened. */
interface ExportedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly events: { name: string; attributes: Record<string, unknown> }[];
  readonly status: { code?: number; message?: string };
  readonly service: unknown;
}

type OtlpAttribute = { key: string; value: Record<string, unknown> };
const flat = (attributes: OtlpAttribute[] = []) => Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));

/** A collector's OTLP/HTTP endpoint (JSON), keeping every span it is sent. */
async function startCollector(): Promise<{ url: string; spans: ExportedSpan[]; close: () => Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { resourceSpans } = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: {
            spans: (Omit<ExportedSpan, 'attributes' | 'events'> & {
              attributes?: OtlpAttribute[];
              events?: { name: string; attributes?: OtlpAttribute[] }[];
            })[];
          }[];
        }[];
      };
      for (const { resource, scopeSpans } of resourceSpans) {
        for (const span of scopeSpans.flatMap((scope) => scope.spans)) {
          const events = (span.events ?? []).map((event) => ({ name: event.name, attributes: flat(event.attributes) }));
          spans.push({ ...span, attributes: flat(span.attributes), events, service: flat(resource.attributes)['service.name'] });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, spans, close: () => new Promise((closed) => server.close(() => closed())) };
}

/** Every string a span carries once exported: name, attribute values, event attributes, status message. */
function strings(span: ExportedSpan): string[] {
  const values = [span.attributes, ...span.events.map((event) => event.attributes)].flatMap((attributes) => Object.values(attributes).flat());
  return [span.name, span.status.message ?? '', ...values.map((value) => String(value))];
}

const traceparent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
const traceIdOf = (header: string) => header.split('-')[1];

/**
 * docs/operations.md#tracing: the built service as `npm start` runs it, exporting to a collector over
 * OTLP/HTTP when the OTEL_* variables say so, and loading nothing of OpenTelemetry when they do not.
 */
describe('OpenTelemetry tracing of the built service', () => {
  const children = new Set<ChildProcess>();
  let database: { url: string; drop: () => Promise<void> };
  let directory: string;
  let preload: string;
  let documents: MetadataDocumentServer;
  beforeAll(async () => {
    await ensureBuilt();
    database = await emptyDatabase();
    directory = await mkdtemp(join(tmpdir(), 'tollgate-tracing-'));
    // Loaded before the service: says at exit which OpenTelemetry modules the process loaded.
    preload = join(directory, 'loaded-modules.js');
    await writeFile(
      preload,
      "process.on('exit', () => process.stdout.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache).filter((file) => file.includes('@opentelemetry'))) + '\\n'));\n",
    );
    documents = await startMetadataDocumentServer();
  }, 180_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await documents?.close();
    await database?.drop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  async function environment(otel: Record<string, string>): Promise<Record<string, string>> {
    return {
      DATABASE_URL: database.url,
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      ISSUER,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      NODE_OPTIONS: `--require=${preload}`,
      ...otel,
    };
  }

  const loadedModules = (output: string): string[] => JSON.parse(/^LOADED (.*)$/m.exec(output)![1]) as string[];

  it('continues the caller’s trace through the token endpoint’s stages and queries, sends traceparent on outbound fetches, and records no secret', async () => {
    const collector = await startCollector();
    try {
      const env = await environment({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'tollgate-e2e',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      const service = await startService(env, children);
      const base = `http://127.0.0.1:${env.PORT}`;

      const incoming = traceparent();
      const issued = await postForm(
        `${base}/connect/token`,
        { grant_type: 'client_credentials', scope: 'api1' },
        { authorization: basic('m2m', 'm2m-secret'), traceparent: incoming },
      );
      expect(issued.status).toBe(200);
      // Secrets where a careless instrumentation would record them: the body, the query string, the Authorization header.
      const user = await requestToken(base, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: 'alice',
        password: 'alice',
        scope: 'openid api1 offline_access',
      });
      expect(user.status).toBe(200);
      const refreshed = await requestToken(base, 'frontend', 'frontend-secret', { grant_type: 'refresh_token', refresh_token: user.body.refresh_token });
      expect(refreshed.status).toBe(200);
      const inQuery = `${base}/connect/token?client_secret=m2m-secret&code=query-code-4a7f&access_token=${user.body.access_token}`;
      expect((await postForm(inQuery, { grant_type: 'client_credentials', client_id: 'm2m', client_secret: 'wrong-secret-9b1c' })).status).toBe(401);
      expect((await request(`${base}/connect/userinfo?access_token=${refreshed.body.access_token}`)).status).toBeGreaterThanOrEqual(400);

      // A client ID metadata document: fetched by the guarded outbound fetcher, within the request's trace.
      let documentHeaders: IncomingHttpHeaders | undefined;
      const clientId = documents.route('/agent.json', (request, response) => {
        documentHeaders = request.headers;
        response.writeHead(404).end();
      });
      const authorizing = traceparent();
      const authorize = new URL(`${base}/connect/authorize`);
      authorize.search = new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:1/cb',
        state: 'state-secret-77d2',
      }).toString();
      await request(authorize.toString(), { headers: { traceparent: authorizing }, redirect: 'manual' });
      expect(String(documentHeaders?.traceparent)).toMatch(new RegExp(`^00-${traceIdOf(authorizing)}-[0-9a-f]{16}-01$`));

      const output = await stop(service);
      expect(loadedModules(output).some((file) => file.includes('@opentelemetry/sdk-trace-node'))).toBe(true);
      const spans = collector.spans;
      expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['tollgate-e2e']));

      // The token request: one server span continuing the caller's, the stages beneath it, queries beneath those.
      const trace = spans.filter((span) => span.traceId === traceIdOf(incoming));
      const server = trace.find((span) => span.kind === 2)!;
      expect(server).toMatchObject({ name: 'POST /connect/token', parentSpanId: incoming.split('-')[2] });
      expect(server.attributes).toMatchObject({ 'http.route': '/connect/token', 'http.response.status_code': 200 });
      const stages = trace.filter((span) => span.parentSpanId === server.spanId).map((span) => span.name);
      expect(stages).toEqual(
        expect.arrayContaining([
          'tollgate.client_authentication',
          'tollgate.token.request_validation',
          'tollgate.token.dpop_proof',
          'tollgate.token.grant_validation',
          'tollgate.token.issuance',
        ]),
      );
      const authentication = trace.find((span) => span.name === 'tollgate.client_authentication')!;
      expect(authentication.attributes).toEqual({ 'tollgate.client_auth_method': 'client_secret_basic', 'tollgate.client_id': 'm2m' });
      expect(trace.find((span) => span.name === 'tollgate.token.grant_validation')!.attributes).toEqual({ 'tollgate.grant_type': 'client_credentials' });
      const queries = trace.filter((span) => span.attributes['db.system.name'] === 'postgresql');
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.some((query) => query.parentSpanId === authentication.spanId)).toBe(true);
      expect(queries.every((query) => String(query.attributes['db.query.text']).includes('$1'))).toBe(true);

      // The outbound fetch: a client span in the authorize request's trace, its URL without a query.
      const fetched = spans.find((span) => span.traceId === traceIdOf(authorizing) && span.kind === 3 && span.attributes['url.full'] === clientId);
      expect(fetched?.spanId).toBe(String(documentHeaders?.traceparent).split('-')[2]);

      const secrets = [
        'm2m-secret',
        'frontend-secret',
        'wrong-secret-9b1c',
        'query-code-4a7f',
        'state-secret-77d2',
        'alice',
        basic('m2m', 'm2m-secret').slice('Basic '.length),
        ...[issued, user, refreshed].flatMap(({ body }) => [body.access_token, body.refresh_token].filter(Boolean)),
        ...[issued, user, refreshed].map(({ body }) => String(body.access_token).split('.')[2]),
      ];
      const leaks = spans.flatMap((span) =>
        strings(span)
          .filter((value) => secrets.some((secret) => value.includes(secret)))
          .map((value) => `${span.name}: ${value}`),
      );
      expect(leaks).toEqual([]);
    } finally {
      await collector.close();
    }
  }, 180_000);

  it('refuses to start with an exporter or protocol it does not have, saying which variable to change', async () => {
    const env = await environment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    const exit = await runToExit(spawnService(env, ROOT, children), 60_000);
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP, port 4318), not grpc');
  }, 90_000);

  // The API package (no-op without an SDK) is loaded either way: prom-client's process metrics require it.
  it('loads no OpenTelemetry SDK, exporter or instrumentation without OTEL_* variables, nor with OTEL_TRACES_EXPORTER=none', async () => {
    const cases: Record<string, string>[] = [{}, { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }];
    for (const otel of cases) {
      const env = await environment(otel);
      const service = await startService(env, children);
      const base = `http://127.0.0.1:${env.PORT}`;
      expect((await requestToken(base, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' })).status).toBe(200);
      expect(loadedModules(await stop(service)).filter((file) => !file.includes('/@opentelemetry/api/'))).toEqual([]);
    }
  }, 180_000);
});

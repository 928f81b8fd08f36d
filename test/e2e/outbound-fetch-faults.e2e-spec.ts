import type { ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { ISSUER, sql, TEST_KEY_ENCRYPTION_KEY, testDatabaseUrl } from '../support/create-test-app';
import { ensureBuilt, freePort, ROOT, spawnService } from '../support/built-service';
import { clientAssertion, JWT_BEARER } from '../support/client-assertions';
import { insertClient, uniqueName } from '../support/fixtures';
import { postForm, request } from '../support/http';
import { startMetadataDocumentServer, type MetadataDocumentServer } from '../support/metadata-document-server';
import { ServiceProcess } from '../support/service-process';

const CALLBACK = 'https://agent.example/callback';
const METADATA_TIMEOUT_MS = 1000;
// The JWK Set fetcher's limits (src/identity/trusted-issuers/jwk-set.fetcher.ts).
const JWK_SET_MAX_BYTES = 256 * 1024;

/** Starts a JSON body, then stops writing: the response is cut (or stalls) in the middle of its body. */
function partialJson(response: ServerResponse, declaredBytes: number): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(declaredBytes) });
  response.write('{"keys":[{"kty":"EC","crv":"P-256","x":"');
}

/**
 * What a client's server can send back to an outbound fetch (client ID metadata documents, a
 * client's `jwks_uri`; docs/agents.md#ssrf, docs/trusted-issuers.md) — bodies too large, declared
 * or streamed, bodies that stall or are reset half-way, redirects, JSON that is not — is refused
 * for that request only: the service answers the next question, as a single process and as a
 * cluster's workers, none of which exits.
 */
describe.each(['1', '2'])('outbound fetches that fail, WORKERS=%s', (workers) => {
  const children = new Set<ChildProcess>();
  let documents: MetadataDocumentServer;
  let service: ServiceProcess;
  let url: string;

  beforeAll(async () => {
    await ensureBuilt();
    documents = await startMetadataDocumentServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    service = new ServiceProcess(
      spawnService(
        {
          WORKERS: workers,
          DATABASE_URL: testDatabaseUrl(),
          KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
          ISSUER,
          SEED_DEMO: 'true',
          LOG_LEVEL: 'info',
          HOST: '127.0.0.1',
          PORT: String(port),
          CLIENT_METADATA_TIMEOUT_MS: String(METADATA_TIMEOUT_MS),
          RATE_LIMIT_AUTH_FAILURES: '0',
          RATE_LIMIT_ANONYMOUS_AUTH_FAILURES: '0',
        },
        ROOT,
        children,
      ),
      170_000,
    );
    const started = workers === '1' ? 'Tollgate listening on' : `All ${workers} workers listening`;
    await service.waitFor('the service to listen', () => service.pidsLogging(started).length === 1, 90_000);
  }, 180_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await documents?.close();
  });

  /** The second question, after each refused fetch: the service still answers, and nothing exited. */
  async function expectStillServing(): Promise<void> {
    // undici's unhandled 'error' was emitted a tick after the response: give it a moment to strike.
    await new Promise((resolve) => setImmediate(resolve));
    const discovery = await request(`${url}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(service.exitedWith).toBeUndefined();
    expect(service.lines().filter((line) => /exited|Unhandled|uncaught/i.test(line.msg ?? ''))).toEqual([]);
  }

  describe('a client ID metadata document', () => {
    async function expectRefusedPage(clientId: string, message: string): Promise<void> {
      const parameters = { client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge: 'c'.repeat(43), code_challenge_method: 'S256' };
      const page = await request(`${url}/connect/authorize?${new URLSearchParams(parameters)}`);
      expect(page.status).toBe(400);
      expect(page.body).toContain(message);
      await expectStillServing();
    }

    const padded = (path: string, bytes: number) => JSON.stringify({ client_id: documents.urlOf(path), redirect_uris: [CALLBACK], padding: 'x'.repeat(bytes) });

    it('over 5 KiB with a Content-Length', async () => {
      const path = `/declared-${workers}`;
      const body = padded(path, 6_000);
      documents.route(path, (_request, response) =>
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body),
      );
      await expectRefusedPage(documents.urlOf(path), 'larger than 5120 bytes');
    });

    it('over 5 KiB, streamed', async () => {
      const path = `/streamed-${workers}`;
      const url = documents.route(path, (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(padded(path, 3_000));
        response.end(' '.repeat(3_000));
      });
      await expectRefusedPage(url, 'larger than 5120 bytes');
    });

    it('whose body stalls past the timeout', async () => {
      await expectRefusedPage(
        documents.route(`/stalled-${workers}`, (_request, response) => partialJson(response, 1_000)),
        `did not answer within ${METADATA_TIMEOUT_MS} ms`,
      );
    });

    it('whose connection is reset in the middle of the body', async () => {
      const url = documents.route(`/reset-${workers}`, (_request, response) => {
        partialJson(response, 1_000);
        setTimeout(() => response.socket?.resetAndDestroy(), 50);
      });
      await expectRefusedPage(url, 'could not be fetched');
    });

    it('behind a redirect with a large body', async () => {
      const url = documents.route(`/moved-${workers}`, (_request, response) => {
        response.writeHead(302, { location: documents.urlOf('/elsewhere'), 'content-length': String(300_000) });
        response.end('x'.repeat(300_000));
      });
      await expectRefusedPage(url, 'redirect (302)');
    });

    it('that is not JSON, or answers 404 with a large body', async () => {
      await expectRefusedPage(documents.document(`/not-json-${workers}`, '{"client_id": '), 'not JSON');
      const url = documents.route(`/gone-${workers}`, (_request, response) => response.writeHead(404, { 'content-length': '100000' }).end('x'.repeat(100_000)));
      await expectRefusedPage(url, 'larger than 5120 bytes');
    });
  });

  describe("a client's jwks_uri", () => {
    async function expectRefusedClient(serve: (response: ServerResponse) => void): Promise<void> {
      const clientId = uniqueName(`jwks-uri-${workers}`);
      const jwksUri = documents.route(`/${clientId}`, (_request, response) => serve(response));
      await insertClient({ clientId, secrets: [], grantTypes: ['client_credentials'], scopes: ['api1'] });
      await sql('UPDATE clients SET jwks_uri = $2 WHERE client_id = $1', [clientId, jwksUri]);
      const token = await postForm(`${url}/connect/token`, {
        grant_type: 'client_credentials',
        client_assertion_type: JWT_BEARER,
        client_assertion: await clientAssertion(clientId),
      });
      expect({ status: token.status, error: token.body.error }).toEqual({ status: 401, error: 'invalid_client' });
      expect(documents.hits(`/${clientId}`)).toBe(1);
      await expectStillServing();
    }

    it('over the size limit with a Content-Length, or streamed', async () => {
      const declared = JWK_SET_MAX_BYTES + 1_000;
      await expectRefusedClient((response) => response.writeHead(200, { 'content-length': String(declared) }).end('x'.repeat(declared)));
      await expectRefusedClient((response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(' '.repeat(declared));
      });
    });

    it('whose body stalls past the timeout, or is reset half-way', async () => {
      await expectRefusedClient((response) => partialJson(response, 1_000));
      await expectRefusedClient((response) => {
        partialJson(response, 1_000);
        setTimeout(() => response.socket?.resetAndDestroy(), 50);
      });
    }, 30_000);

    it('behind a redirect, not JSON, or nested beyond any use', async () => {
      await expectRefusedClient((response) => response.writeHead(302, { location: documents.urlOf('/elsewhere') }).end('x'.repeat(10_000)));
      await expectRefusedClient((response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": ['));
      await expectRefusedClient((response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      );
    });
  });
});

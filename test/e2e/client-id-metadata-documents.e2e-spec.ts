import { generateKeyPairSync } from 'node:crypto';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce } from '../support/browser';
import { clientAssertion, demoPublicJwk, JWT_BEARER } from '../support/client-assertions';
import { uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, postFormFrom, request, requestFrom } from '../support/http';
import { startMetadataDocumentServer, type MetadataDocumentServer } from '../support/metadata-document-server';
import { LOAD_MARGIN_MS } from '../support/token-lifecycle';

const CALLBACK = 'https://agent.example/callback';

/**
 * docs/agents.md: client ID metadata documents. The client's web server runs in the test on
 * 127.0.0.1; the tests' issuer is http, so http documents on loopback are accepted (development).
 */
describe('client ID metadata documents', () => {
  let server: TestServer;
  let documents: MetadataDocumentServer;
  const openedResource = uniqueName('agent-api');
  const openedScope = `${openedResource}.read`;

  beforeAll(async () => {
    await sql('INSERT INTO api_resources (name, scopes, resource_uri, open_to_self_registered) VALUES ($1, $2, $3, true)', [
      openedResource,
      [openedScope],
      `https://${openedResource}.example/mcp`,
    ]);
    documents = await startMetadataDocumentServer();
    server = await startTestServer({ CLIENT_METADATA_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await server.close();
    await documents.close();
  });

  const authorizeUrl = (parameters: Record<string, string>) => `${server.url}/connect/authorize?${new URLSearchParams(parameters)}`;

  function authorization(clientId: string, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const parameters = {
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid profile',
      state: 'state-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    };
    return { parameters, verifier };
  }

  function goodDocument(path: string, extra: Record<string, unknown> = {}): string {
    return documents.document(path, { client_id: documents.urlOf(path), client_name: 'Notes <Agent>', redirect_uris: [CALLBACK], ...extra });
  }

  async function expectErrorPage(clientId: string, message: string, extra: Record<string, string> = {}): Promise<void> {
    const started = Date.now();
    const response = await new Browser().get(authorizeUrl(authorization(clientId, extra).parameters));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain(message);
    // Within CLIENT_METADATA_TIMEOUT_MS (1 s here), with a margin for a loaded machine: never a hang.
    expect(Date.now() - started).toBeLessThan(1000 + LOAD_MARGIN_MS);
  }

  async function signIn(browser: Browser, page: Response): Promise<Response> {
    expect(page.status).toBe(200);
    return browser.submit(server.url, await page.text(), { username: 'alice', password: 'alice' });
  }

  it('advertises client_id_metadata_document_supported', async () => {
    const response = await request(`${server.url}/.well-known/openid-configuration`);
    expect(response.body.client_id_metadata_document_supported).toBe(true);
    expect(response.body.registration_endpoint).toBeUndefined();
  });

  describe('refuses, on a 400 page and never a redirect', () => {
    it('a document behind a redirect, which is not followed', async () => {
      goodDocument('/moved-target');
      const url = documents.route('/moved', (_request, response) => response.writeHead(302, { location: documents.urlOf('/moved-target') }).end());
      await expectErrorPage(url, 'redirect (302)');
      expect(documents.hits('/moved-target')).toBe(0);
    });

    it('a server that stalls past the timeout', async () => {
      const url = documents.route('/stall', () => undefined);
      const response = await new Browser().get(authorizeUrl(authorization(url).parameters));
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('did not answer within 1000 ms');
    });

    it('a document over 5 KiB, declared or streamed', async () => {
      const url = goodDocument('/big', { padding: 'x'.repeat(6 * 1024) });
      await expectErrorPage(url, 'larger than 5120 bytes');
      const chunked = documents.route('/big-chunked', (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`{"client_id":"${documents.urlOf('/big-chunked')}","x":"`);
        response.end(`${'y'.repeat(6 * 1024)}"}`);
      });
      await expectErrorPage(chunked, 'larger than 5120 bytes');
    });

    it('a document whose client_id is not its URL', async () => {
      const url = documents.document('/liar', { client_id: 'https://trusted.example/client.json', redirect_uris: [CALLBACK] });
      await expectErrorPage(url, 'client_id is not its URL');
    });

    it('a document with a client_secret', async () => {
      await expectErrorPage(goodDocument('/secret', { client_secret: 'shh' }), 'must not contain a client_secret');
      await expectErrorPage(goodDocument('/secret-method', { token_endpoint_auth_method: 'client_secret_post' }), 'client_secret method');
    });

    it('a document that is not a JSON object, or answers other than 200', async () => {
      await expectErrorPage(documents.document('/array', '[]'), 'JSON object');
      await expectErrorPage(documents.document('/not-json', 'hello'), 'not JSON');
      await expectErrorPage(documents.urlOf('/missing'), 'answered 404');
    });

    it('a document naming a member twice, nested too deeply, or with an RSA key under 2048 bits', async () => {
      const url = documents.urlOf('/twice');
      documents.document('/twice', `{"client_id":"${url}","redirect_uris":["${CALLBACK}"],"redirect_uris":["https://attacker.example/cb"]}`);
      await expectErrorPage(url, 'the member &quot;redirect_uris&quot; is named twice');
      await expectErrorPage(goodDocument('/deep', { x: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) }), 'nested deeper than 32 levels');
      const weak = { ...generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }), kid: 'weak' };
      await expectErrorPage(goodDocument('/weak', { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [weak] } }), 'at least 2048 bits');
    });

    it('a redirect_uri the document does not list', async () => {
      await expectErrorPage(goodDocument('/good-elsewhere'), 'redirect_uri is not registered', { redirect_uri: 'https://attacker.example/callback' });
    });

    it('private and link-local addresses, before connecting', async () => {
      await expectErrorPage('https://10.0.0.1/client.json', 'not at a public address');
      await expectErrorPage('https://169.254.169.254/latest/meta-data', 'not at a public address');
      await expectErrorPage('https://[fd00::1]/client.json', 'not at a public address');
    });

    it('client_id URLs that break the rules', async () => {
      await expectErrorPage(`${documents.base}/`, 'must have a path');
      await expectErrorPage('https://user@app.example/client.json', 'user information');
      await expectErrorPage('http://agent.example/client.json', 'must be https');
    });
  });

  it('runs the code flow: consent shows the name with host and port, escaped; tokens carry the URL as client_id', async () => {
    const url = goodDocument('/agent');
    const browser = new Browser();
    const { parameters, verifier } = authorization(url, { scope: `openid profile offline_access ${openedScope}` });
    const consent = await signIn(browser, await browser.get(authorizeUrl(parameters)));
    expect(consent.status).toBe(200);
    const html = await consent.text();
    const host = new URL(documents.base).host;
    expect(html).toContain(`Notes &lt;Agent&gt; (${host})`);
    expect(html).not.toContain('Notes <Agent>');
    const redirect = await browser.submit(server.url, html, { decision: 'allow' });
    expect(redirect.status).toBe(302);
    const { code, state } = locationParameters(redirect);
    expect(state).toBe('state-1');
    const token = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: url,
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    const claims = jwtPayload(token.body.access_token);
    expect(claims.client_id).toBe(url);
    expect(claims.scope.split(' ').sort()).toEqual(['offline_access', 'openid', openedScope, 'profile'].sort());
    expect(token.body.refresh_token).toEqual(expect.any(String));

    const refreshed = await postForm(`${server.url}/connect/token`, { grant_type: 'refresh_token', client_id: url, refresh_token: token.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(jwtPayload(refreshed.body.access_token).client_id).toBe(url);

    // Remembered per user, client and scopes; the document was fetched once (cached at least 5 minutes).
    const again = await browser.get(authorizeUrl(authorization(url, { scope: `openid profile ${openedScope}` }).parameters));
    expect(again.status).toBe(302);
    expect(locationParameters(again).code).toEqual(expect.any(String));
    expect(documents.hits('/agent')).toBe(1);
  });

  it('limits the scopes to identity scopes, offline_access and opened resources', async () => {
    const url = goodDocument('/scopes');
    const page = await new Browser().get(authorizeUrl(authorization(url, { scope: 'openid api1' }).parameters));
    expect(page.status).toBe(302);
    expect(locationParameters(page)).toMatchObject({ error: 'invalid_scope', state: 'state-1' });
  });

  it('refuses client_credentials and a bad document at the token endpoint with invalid_client', async () => {
    const url = goodDocument('/m2m');
    const grant = await postForm(`${server.url}/connect/token`, { grant_type: 'client_credentials', client_id: url });
    expect(grant.status).toBe(400);
    expect(grant.body.error).toBe('unauthorized_client');
    const liar = documents.document('/token-liar', { client_id: 'https://x.example/y', redirect_uris: [CALLBACK] });
    const refused = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: liar,
      code: 'x',
      redirect_uri: CALLBACK,
      code_verifier: 'v'.repeat(43),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
  });

  it('authenticates a private_key_jwt document client with the keys in its document', async () => {
    const url = goodDocument('/signed', { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [demoPublicJwk('batch')] } });
    const browser = new Browser();
    const { parameters, verifier } = authorization(url);
    const consent = await signIn(browser, await browser.get(authorizeUrl(parameters)));
    const redirect = await browser.submit(server.url, await consent.text(), { decision: 'allow' });
    const { code } = locationParameters(redirect);
    const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
    // Not a public client: its id alone does not authenticate it.
    const unsigned = await postForm(`${server.url}/connect/token`, { ...form, client_id: url });
    expect(unsigned.status).toBe(401);
    const token = await postForm(`${server.url}/connect/token`, { ...form, client_assertion_type: JWT_BEARER, client_assertion: await clientAssertion(url) });
    expect(token.status).toBe(200);
    expect(jwtPayload(token.body.access_token).client_id).toBe(url);
  });

  it('pushes an authorization request (RFC 9126) as a public document client', async () => {
    const url = goodDocument('/pushed');
    const { parameters } = authorization(url);
    const pushed = await postForm(`${server.url}/connect/par`, parameters);
    expect(pushed.status).toBe(201);
    const page = await new Browser().get(authorizeUrl({ client_id: url, request_uri: pushed.body.request_uri }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="password"');
  });

  it('asks consent every time for a document whose redirect URIs are all loopback', async () => {
    const loopback = 'http://127.0.0.1:33418/callback';
    const url = documents.document('/native', { client_id: documents.urlOf('/native'), client_name: 'Native', redirect_uris: [loopback] });
    const browser = new Browser();
    const first = await signIn(browser, await browser.get(authorizeUrl(authorization(url, { redirect_uri: loopback }).parameters)));
    const html = await first.text();
    expect(html).toContain('Allow access?');
    expect(html).not.toContain('Your answer is remembered');
    expect((await browser.submit(server.url, html, { decision: 'allow' })).status).toBe(302);
    const second = await browser.get(authorizeUrl(authorization(url, { redirect_uri: loopback }).parameters));
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('Allow access?');
  });
});

describe('client ID metadata documents under an https issuer', () => {
  let server: TestServer;
  let documents: MetadataDocumentServer;
  beforeAll(async () => {
    documents = await startMetadataDocumentServer();
    server = await startTestServer({ ISSUER: 'https://tollgate.test' });
  });
  afterAll(async () => {
    await server.close();
    await documents.close();
  });

  async function status(clientId: string): Promise<{ status: number; text: string }> {
    const { challenge } = pkce();
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const response = await fetch(`${server.url}/connect/authorize?${query}`, { redirect: 'manual' });
    return { status: response.status, text: await response.text() };
  }

  it('refuses http documents on loopback and a host name that resolves to loopback', async () => {
    const path = '/doc';
    documents.document(path, { client_id: `https://localhost:${new URL(documents.base).port}${path}`, redirect_uris: [CALLBACK] });
    const http = await status(documents.urlOf(path));
    expect(http).toMatchObject({ status: 400 });
    expect(http.text).toContain('must be https');
    const resolvesToLoopback = await status(`https://localhost:${new URL(documents.base).port}${path}`);
    expect(resolvesToLoopback.status).toBe(400);
    expect(resolvesToLoopback.text).toContain('not at a public address');
    expect(documents.hits(path)).toBe(0);
  });
});

/**
 * docs/agents.md#bounds: each distinct URL is a fetch and, once valid, a `clients` row, so the
 * documents an address may have fetched for the first time are counted (RATE_LIMIT_METADATA_DOCUMENTS
 * per RATE_LIMIT_WINDOW_SECONDS), before anything is fetched.
 */
describe('client ID metadata documents: new documents counted per client address', () => {
  let server: TestServer;
  let documents: MetadataDocumentServer;
  beforeAll(async () => {
    documents = await startMetadataDocumentServer();
    server = await startTestServer({ RATE_LIMIT_METADATA_DOCUMENTS: '3' });
  });
  afterAll(async () => {
    await server.close();
    await documents.close();
  });

  const document = (path: string) => documents.document(path, { client_id: documents.urlOf(path), redirect_uris: [CALLBACK] });
  const authorizeFrom = (address: string, clientId: string) =>
    requestFrom(
      address,
      `${server.url}/connect/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', code_challenge: 'c'.repeat(43), code_challenge_method: 'S256' })}`,
      'GET',
    );
  const storedClients = async (clientId: string) => (await sql('SELECT client_id FROM clients WHERE client_id = $1', [clientId])).length;

  it('answers 429 over the budget, fetching and storing nothing, at the authorization and token endpoints; known documents and other addresses are served', async () => {
    const urls = ['/a', '/b', '/c', '/d', '/e'].map(document);
    const failing = documents.urlOf('/missing');
    for (const url of [urls[0], urls[1], failing]) expect((await authorizeFrom('127.0.0.1', url)).status).not.toBe(429);
    // A document that failed is a fetch too, and leaves no client behind.
    expect(await storedClients(failing)).toBe(0);

    const page = await authorizeFrom('127.0.0.1', urls[2]);
    expect({ status: page.status, type: page.headers.get('content-type') }).toEqual({ status: 429, type: 'text/html; charset=utf-8' });
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(page.body).toContain('Too many new client metadata documents from this address. Please try again later.');
    const token = await postFormFrom('127.0.0.1', `${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: urls[3],
      code: 'x',
      redirect_uri: CALLBACK,
      code_verifier: 'v'.repeat(43),
    });
    expect({ status: token.status, error: token.body.error }).toEqual({ status: 429, error: 'temporarily_unavailable' });
    expect(Number(token.headers.get('retry-after'))).toBeGreaterThan(0);
    expect([documents.hits('/c'), documents.hits('/d'), await storedClients(urls[2]), await storedClients(urls[3])]).toEqual([0, 0, 0, 0]);

    // Documents already held cost nothing; another address has its own budget.
    expect((await authorizeFrom('127.0.0.1', urls[0])).status).toBe(200);
    expect(documents.hits('/a')).toBe(1);
    expect((await authorizeFrom('127.0.0.2', urls[2])).status).toBe(200);
    expect(await storedClients(urls[2])).toBe(1);
  });
});

import { Browser, locationParameters, pkce } from '../support/browser';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, request, requestToken, type HttpResponse } from '../support/http';
import { startMetadataDocumentServer, type MetadataDocumentServer } from '../support/metadata-document-server';

const CALLBACK = 'https://agent.example/callback';

/**
 * docs/agents.md#what-a-self-registered-client-may-do: what a self-registered client may reach is
 * decided per resource, not per scope. Two APIs share a scope; only one is opened to self-registered
 * clients. A metadata-document client (served on 127.0.0.1) and a dynamically registered client may
 * get tokens for the open one, never an `aud` naming the closed one.
 */
describe('a resource closed to self-registered clients that shares a scope with an open one', () => {
  let server: TestServer;
  let documents: MetadataDocumentServer;
  const open = uniqueName('open-api');
  const closed = uniqueName('closed-api');
  const shared = `${open}.shared`;
  const openUri = `https://${open}.example/mcp`;
  const closedUri = `https://${closed}.example/api`;

  beforeAll(async () => {
    await sql('INSERT INTO api_resources (name, scopes, resource_uri, open_to_self_registered) VALUES ($1, $2, $3, true), ($4, $5, $6, false)', [
      open,
      [shared],
      openUri,
      closed,
      [shared],
      closedUri,
    ]);
    documents = await startMetadataDocumentServer();
    server = await startTestServer({ DYNAMIC_REGISTRATION: 'open' });
  });
  afterAll(async () => {
    await server?.close();
    await documents?.close();
  });

  const documentClient = (path: string) => documents.document(path, { client_id: documents.urlOf(path), client_name: 'Agent', redirect_uris: [CALLBACK] });

  /** Signs alice in and allows: the code, or the error the authorization endpoint redirected with. */
  async function authorize(clientId: string, extra: Record<string, string>): Promise<{ code?: string; error?: string; verifier: string }> {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    const browser = new Browser();
    const page = await browser.get(`${server.url}/connect/authorize?${query}`);
    if (page.status === 302) return { ...locationParameters(page), verifier };
    expect(page.status).toBe(200);
    const consent = await browser.submit(server.url, await page.text(), { username: 'alice', password: 'alice' });
    expect(consent.status).toBe(200);
    const redirect = await browser.submit(server.url, await consent.text(), { decision: 'allow' });
    expect(redirect.status).toBe(302);
    return { ...locationParameters(redirect), verifier };
  }

  async function tokens(clientId: string, extra: Record<string, string>): Promise<HttpResponse> {
    const { code, error, verifier } = await authorize(clientId, extra);
    expect({ error }).toEqual({ error: undefined });
    const token = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: code!,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    return token;
  }

  const refresh = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
    postForm(`${server.url}/connect/token`, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken, ...extra });

  it("gives an anonymous metadata-document client's token, asked for the shared scope, only the open resource as aud, also when refreshed", async () => {
    const clientId = documentClient('/shared-scope');
    const token = await tokens(clientId, { scope: `${shared} offline_access` });
    expect(jwtPayload(token.body.access_token)).toMatchObject({ aud: open, scope: `${shared} offline_access`, client_id: clientId });
    const refreshed = await refresh(clientId, token.body.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(jwtPayload(refreshed.body.access_token).aud).toBe(open);
    // Narrowing a refresh to the closed resource is refused, not granted.
    const narrowed = await refresh(clientId, refreshed.body.refresh_token, { resource: closedUri });
    expect({ status: narrowed.status, error: narrowed.body.error }).toEqual({ status: 400, error: 'invalid_target' });
  });

  it('refuses the closed resource as a resource indicator with invalid_target, and issues the open one', async () => {
    const clientId = documentClient('/indicator');
    expect((await authorize(clientId, { scope: shared, resource: closedUri })).error).toBe('invalid_target');
    const token = await tokens(clientId, { scope: shared, resource: openUri });
    expect(jwtPayload(token.body.access_token).aud).toBe(openUri);
  });

  it('holds for a dynamically registered client too', async () => {
    const registered = await request(`${server.url}/connect/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', scope: shared }),
    });
    expect(registered.status).toBe(201);
    const clientId: string = registered.body.client_id;
    expect((await authorize(clientId, { scope: shared, resource: closedUri })).error).toBe('invalid_target');
    expect(jwtPayload((await tokens(clientId, { scope: shared })).body.access_token).aud).toBe(open);
  });

  it("still gives an operator's client both resources for the shared scope", async () => {
    const clientId = uniqueName('operator');
    await insertClient({ clientId, secrets: [{ secret: 'operator-secret' }], grantTypes: ['client_credentials'], scopes: [shared] });
    const token = await requestToken(server.url, clientId, 'operator-secret', { grant_type: 'client_credentials', scope: shared });
    expect(token.status).toBe(200);
    expect([...jwtPayload(token.body.access_token).aud].sort()).toEqual([open, closed].sort());
  });
});

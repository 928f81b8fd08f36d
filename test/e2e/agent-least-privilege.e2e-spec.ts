import { Browser, locationParameters, pkce } from '../support/browser';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, request } from '../support/http';
import { startMetadataDocumentServer, type MetadataDocumentServer } from '../support/metadata-document-server';

const CALLBACK = 'https://agent.example/callback';

/**
 * docs/agents.md#what-a-self-registered-client-may-do, least privilege for agents: a metadata-document or dynamically registered client
 * that sends no `scope` gets the scopes of the resources it named with `resource`, nothing else (no
 * identity scope, no offline_access, so no ID token); neither scope nor resource is `invalid_scope`.
 */
describe('clients that register themselves and send no scope', () => {
  let server: TestServer;
  let documents: MetadataDocumentServer;
  const resource = uniqueName('least');
  const resourceUri = `https://${resource}.example/mcp`;

  beforeAll(async () => {
    // Opened to self-registered clients with two scopes; the client may ask for identity scopes and offline_access as well.
    await sql('INSERT INTO api_resources (name, scopes, resource_uri, open_to_self_registered) VALUES ($1, $2, $3, true)', [
      resource,
      [`${resource}.read`, `${resource}.write`],
      resourceUri,
    ]);
    documents = await startMetadataDocumentServer();
    server = await startTestServer({ DYNAMIC_REGISTRATION: 'open', RATE_LIMIT_REGISTRATIONS: '0' });
  });
  afterAll(async () => {
    await server.close();
    await documents.close();
  });

  const metadataDocumentClient = () => {
    const path = `/${uniqueName('agent')}.json`;
    return documents.document(path, { client_id: documents.urlOf(path), client_name: 'Agent', redirect_uris: [CALLBACK] });
  };

  async function registeredClient(): Promise<string> {
    const registered = await request(`${server.url}/connect/register`, {
      method: 'POST',
      body: JSON.stringify({ client_name: 'Agent', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(registered.status).toBe(201);
    return registered.body.client_id;
  }

  function authorizeUrl(clientId: string, extra: Record<string, string>, challenge: string): string {
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      state: 'state-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return `${server.url}/connect/authorize?${query}`;
  }

  for (const [kind, client] of [
    ['a metadata-document client', async () => metadataDocumentClient()],
    ['a dynamically registered client', registeredClient],
  ] as const) {
    describe(kind, () => {
      it('is asked consent for, and gets, the scopes of the resource it named: no identity scope, no offline_access, no ID token', async () => {
        const clientId = await client();
        const { verifier, challenge } = pkce();
        const browser = new Browser();
        const login = await browser.get(authorizeUrl(clientId, { resource: resourceUri }, challenge));
        expect(login.status).toBe(200);
        const consent = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
        expect(consent.status).toBe(200);
        const asked = [...(await consent.clone().text()).matchAll(/<li>([^<]*)<\/li>/g)].map(([, item]) => item);
        expect(asked).toEqual([`Use the ${resource}.read API on your behalf`, `Use the ${resource}.write API on your behalf`]);
        const redirect = await browser.submit(server.url, await consent.text(), { decision: 'allow' });
        expect(redirect.status).toBe(302);

        const token = await postForm(`${server.url}/connect/token`, {
          grant_type: 'authorization_code',
          code: locationParameters(redirect).code,
          redirect_uri: CALLBACK,
          client_id: clientId,
          code_verifier: verifier,
          resource: resourceUri,
        });
        expect(token.status).toBe(200);
        expect(token.body.scope.split(' ').sort()).toEqual([`${resource}.read`, `${resource}.write`]);
        expect(token.body).not.toHaveProperty('id_token');
        expect(token.body).not.toHaveProperty('refresh_token');
        expect(jwtPayload(token.body.access_token)).toMatchObject({ aud: resourceUri, client_id: clientId });
      });

      it('gets invalid_scope at its redirect URI when it names neither a scope nor a resource', async () => {
        const response = await new Browser().get(authorizeUrl(await client(), {}, pkce().challenge));
        expect(response.status).toBe(302);
        expect(response.headers.get('location')!.startsWith(`${CALLBACK}?`)).toBe(true);
        expect(locationParameters(response)).toMatchObject({ error: 'invalid_scope', state: 'state-1', iss: 'http://tollgate.test' });
      });
    });
  }
});

import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce } from '../support/browser';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, postForm, requestToken, type HttpResponse } from '../support/http';
import { eventually } from '../support/token-lifecycle';

/** RFC 8707 resource indicators at the authorization and token endpoints (docs/tokens.md#resource-indicators). */
describe('resource indicators', () => {
  let server: TestServer;
  const names = { a: uniqueName('res-a'), b: uniqueName('res-b'), c: uniqueName('res-c') };
  const A = `https://${names.a}.example/api`;
  const B = `https://${names.b}.example/api`;
  const C = `https://${names.c}.example/api`;
  const service = { clientId: uniqueName('ri-service'), secret: 'ri-service-secret' };
  const exchanger = { clientId: uniqueName('ri-exchanger'), secret: 'ri-exchanger-secret' };
  const app = { clientId: uniqueName('ri-app'), secret: 'ri-app-secret', redirectUri: 'http://127.0.0.1:5199/callback' };

  beforeAll(async () => {
    // CACHE_TTL_SECONDS=0: the catalog is reloaded within a second of the resources being added.
    server = await startTestServer({ CACHE_TTL_SECONDS: '0' });
    for (const [name, uri] of [
      [names.a, A],
      [names.b, B],
      [names.c, C],
    ]) {
      await sql('INSERT INTO api_resources (name, scopes, resource_uri) VALUES ($1, $2, $3)', [name, [name], uri]);
    }
    await insertClient({ ...service, secrets: [{ secret: service.secret }], grantTypes: ['client_credentials'], scopes: [names.a, names.b, 'api1'] });
    await insertClient({
      ...app,
      secrets: [{ secret: app.secret }],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', names.a, names.b, 'offline_access'],
      redirectUris: [app.redirectUri],
    });
    // The exchanger serves resource A: tokens addressed to A's URI are addressed to it.
    await sql('UPDATE api_resources SET serving_client_id = $1 WHERE name = $2', [exchanger.clientId, names.a]);
    await insertClient({
      ...exchanger,
      secrets: [{ secret: exchanger.secret }],
      grantTypes: ['urn:ietf:params:oauth:grant-type:token-exchange'],
      scopes: ['openid', names.b],
    });
    await eventually(async () => (await clientCredentials({ resource: A })).status === 200, 5000);
  });
  afterAll(() => server.close());

  const clientCredentials = (form: Record<string, string | string[]>) =>
    requestToken(server.url, service.clientId, service.secret, { grant_type: 'client_credentials', ...form });
  const token = (form: Record<string, string | string[]>) => postForm(`${server.url}/connect/token`, form, { authorization: basic(app.clientId, app.secret) });

  function authorizeUrl(resources: readonly string[], extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: `openid ${names.a} ${names.b} offline_access`,
      state: 'ri-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    for (const resource of resources) query.append('resource', resource);
    return { url: `${server.url}/connect/authorize?${query.toString()}`, verifier };
  }

  /** Signs alice in with these resources; the login page carries them. */
  async function code(resources: readonly string[], extra: Record<string, string> = {}) {
    const { url, verifier } = authorizeUrl(resources, extra);
    const browser = new Browser();
    const login = await browser.get(url);
    expect(login.status).toBe(200);
    const redirect = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
    expect(redirect.status).toBe(302);
    return { code: locationParameters(redirect).code, verifier };
  }

  const redeem = (issued: { code: string; verifier: string }, extra: Record<string, string | string[]> = {}) =>
    token({ grant_type: 'authorization_code', code: issued.code, redirect_uri: app.redirectUri, code_verifier: issued.verifier, ...extra });

  function expectToken(response: HttpResponse, aud: string | string[], scope: string): { access_token: string; refresh_token: string } {
    expect(response.status).toBe(200);
    const claims = jwtPayload(response.body.access_token);
    expect({ aud: claims.aud, scope: claims.scope, responseScope: response.body.scope }).toEqual({ aud, scope, responseScope: scope });
    return response.body;
  }

  describe('client_credentials', () => {
    it('addresses the token to exactly the requested resource, with only its scopes', async () => {
      expectToken(await clientCredentials({ resource: A }), A, names.a);
      expectToken(await clientCredentials({ resource: [A, B] }), [A, B], `${names.a} ${names.b}`);
      expectToken(await clientCredentials({ resource: A, scope: names.a }), A, names.a);
    });

    it('keeps the audience by scope without resource', async () => {
      expectToken(await clientCredentials({ scope: names.a }), names.a, names.a);
    });

    it('refuses a scope of another resource as invalid_scope', async () => {
      expectTokenError(await clientCredentials({ resource: A, scope: `${names.a} ${names.b}` }), 400, 'invalid_scope');
      expectTokenError(await clientCredentials({ resource: A, scope: 'api1' }), 400, 'invalid_scope');
    });

    it.each([
      ['an unknown URI', 'https://unknown.example/api'],
      ['a relative URI', '/api'],
      ['a URI with a fragment', `${A}#part`],
      ['a resource name instead of its URI', 'api1'],
    ])('refuses %s as invalid_target', async (_, resource) => {
      expectTokenError(await clientCredentials({ resource }), 400, 'invalid_target');
    });

    it('refuses a resource none of whose scopes the client may request as invalid_target', async () => {
      expectTokenError(await clientCredentials({ resource: C }), 400, 'invalid_target');
      expectTokenError(await clientCredentials({ resource: [A, C] }), 400, 'invalid_target');
    });

    it('answers invalid_target when the scope is wrong too', async () => {
      expectTokenError(await clientCredentials({ resource: 'https://unknown.example/api', scope: 'unknown-scope' }), 400, 'invalid_target');
      expectTokenError(await clientCredentials({ resource: C, scope: names.c }), 400, 'invalid_target');
    });

    it('refuses more than 16 resource values as invalid_request', async () => {
      expectTokenError(await clientCredentials({ resource: Array.from({ length: 17 }, () => A) }), 400, 'invalid_request');
    });
  });

  describe('authorization_code and refresh_token', () => {
    it('addresses the code’s tokens to the resources authorized, and refreshes keep them', async () => {
      const issued = await redeem(await code([A, B]));
      const body = expectToken(issued, [A, B], `openid ${names.a} ${names.b} offline_access`);
      const refreshed = expectToken(
        await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token }),
        [A, B],
        `openid ${names.a} ${names.b} offline_access`,
      );
      // Narrowed to one, then back to the other: the refresh token stays bound to both.
      const narrowed = expectToken(
        await token({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token, resource: B }),
        B,
        `openid ${names.b} offline_access`,
      );
      expectToken(await token({ grant_type: 'refresh_token', refresh_token: narrowed.refresh_token, resource: A }), A, `openid ${names.a} offline_access`);
    });

    it('takes the same resource again at the token endpoint, as MCP clients send it', async () => {
      const issued = expectToken(
        await redeem(await code([A], { scope: `openid ${names.a} offline_access` }), { resource: A }),
        A,
        `openid ${names.a} offline_access`,
      );
      expectToken(await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, resource: A }), A, `openid ${names.a} offline_access`);
    });

    it('narrows at the token endpoint, limiting the scopes to the resource', async () => {
      expectToken(await redeem(await code([A, B]), { resource: B }), B, `openid ${names.b} offline_access`);
    });

    it('refuses a resource that was not authorized (widening) as invalid_target, leaving the code usable', async () => {
      const issued = await code([A], { scope: `openid ${names.a} offline_access` });
      expectTokenError(await redeem(issued, { resource: B }), 400, 'invalid_target');
      expectTokenError(await redeem(issued, { resource: [A, B] }), 400, 'invalid_target');
      const body = expectToken(await redeem(issued), A, `openid ${names.a} offline_access`);
      expectTokenError(await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token, resource: B }), 400, 'invalid_target');
      expectTokenError(
        await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token, resource: 'https://unknown.example/api' }),
        400,
        'invalid_target',
      );
    });

    it('refuses an explicit refresh scope of another resource as invalid_scope', async () => {
      const body = expectToken(await redeem(await code([A, B])), [A, B], `openid ${names.a} ${names.b} offline_access`);
      expectTokenError(await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token, resource: A, scope: names.b }), 400, 'invalid_scope');
    });

    it('narrows a grant made without resource to a resource of its scopes, and refuses another', async () => {
      const body = expectToken(await redeem(await code([], { scope: `openid ${names.a} offline_access` })), names.a, `openid ${names.a} offline_access`);
      const narrowed = expectToken(
        await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token, resource: A }),
        A,
        `openid ${names.a} offline_access`,
      );
      expectTokenError(await token({ grant_type: 'refresh_token', refresh_token: narrowed.refresh_token, resource: B }), 400, 'invalid_target');
    });

    it('carries repeated resources through a pushed request', async () => {
      const { verifier, challenge } = pkce();
      const pushed = await postForm(
        `${server.url}/connect/par`,
        {
          response_type: 'code',
          redirect_uri: app.redirectUri,
          scope: `openid ${names.a} ${names.b}`,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: [A, B],
        },
        { authorization: basic(app.clientId, app.secret) },
      );
      expect(pushed.status).toBe(201);
      const browser = new Browser();
      const query = new URLSearchParams({ client_id: app.clientId, request_uri: pushed.body.request_uri });
      const login = await browser.get(`${server.url}/connect/authorize?${query.toString()}`);
      const redirect = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
      expectToken(await redeem({ code: locationParameters(redirect).code, verifier }), [A, B], `openid ${names.a} ${names.b}`);
    });

    it('refuses an unknown resource in a pushed request as invalid_target', async () => {
      const { challenge } = pkce();
      const pushed = await postForm(
        `${server.url}/connect/par`,
        {
          response_type: 'code',
          redirect_uri: app.redirectUri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: 'https://unknown.example/',
        },
        { authorization: basic(app.clientId, app.secret) },
      );
      expect({ status: pushed.status, error: pushed.body.error }).toEqual({ status: 400, error: 'invalid_target' });
    });
  });

  describe('token exchange', () => {
    const exchange = (subjectToken: string, form: Record<string, string | string[]>) =>
      requestToken(server.url, exchanger.clientId, exchanger.secret, {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: subjectToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        ...form,
      });

    it('takes a token addressed to the URI of a resource the client serves, and addresses the new one by URI or name as asked', async () => {
      const userToken = expectToken(
        await redeem(await code([A], { scope: `openid ${names.a} offline_access` }), { resource: A }),
        A,
        `openid ${names.a} offline_access`,
      ).access_token;
      const byUri = expectToken(await exchange(userToken, { resource: B }), B, `openid ${names.b}`);
      expect(jwtPayload(byUri.access_token)).toMatchObject({ sub: '1', act: { client_id: exchanger.clientId } });
      expectToken(await exchange(userToken, { audience: B }), B, `openid ${names.b}`);
      expectToken(await exchange(userToken, { resource: names.b }), names.b, `openid ${names.b}`);
      expectTokenError(await exchange(userToken, { resource: 'https://unknown.example/api' }), 400, 'invalid_target');
    });

    it('refuses a token addressed to another resource’s URI', async () => {
      const userToken = expectToken(
        await redeem(await code([B], { scope: `openid ${names.b} offline_access` }), { resource: B }),
        B,
        `openid ${names.b} offline_access`,
      ).access_token;
      expectTokenError(await exchange(userToken, { resource: B }), 400, 'invalid_request');
    });
  });

  describe('authorization endpoint errors', () => {
    const expectRedirectError = (response: Response, error: string) => {
      expect(response.status).toBe(302);
      expect(response.headers.get('location')!.startsWith(`${app.redirectUri}?`)).toBe(true);
      expect(locationParameters(response)).toEqual({ error, error_description: expect.any(String), state: 'ri-state', iss: ISSUER });
    };

    it.each([
      ['an unknown URI', ['https://unknown.example/api']],
      ['a URI with a fragment', [`${A}#x`]],
      ['a relative URI', ['/api']],
      ['a resource the client may not request', [C]],
      ['one bad among good ones', [A, 'https://unknown.example/api']],
    ])('redirects %s as invalid_target', async (_, resources) => {
      expectRedirectError(await new Browser().get(authorizeUrl(resources).url), 'invalid_target');
    });

    it.each([
      ['more than 16 values', Array.from({ length: 17 }, (_, index) => `https://${index}.example/`)],
      ['a value over 2,048 characters', [`https://a.example/${'x'.repeat(2048)}`]],
    ])('redirects %s as invalid_request', async (_, resources) => {
      expectRedirectError(await new Browser().get(authorizeUrl(resources).url), 'invalid_request');
    });

    it('refuses a resource with control characters as invalid_target, never a fault (a NUL refuses the whole request)', async () => {
      expectRedirectError(await new Browser().get(authorizeUrl([`${A}\u0001`, 'https://a\u0001.example/']).url), 'invalid_target');
      expectTokenError(await clientCredentials({ resource: `${A}\u0001` }), 400, 'invalid_target');
      expectTokenError(await clientCredentials({ resource: `${A}\u0000` }), 400, 'invalid_request');
    });

    it('redirects a scope of another resource as invalid_scope, and invalid_target when both apply', async () => {
      expectRedirectError(await new Browser().get(authorizeUrl([A], { scope: `openid ${names.b}` }).url), 'invalid_scope');
      expectRedirectError(await new Browser().get(authorizeUrl(['https://unknown.example/api'], { scope: 'openid unknown-scope' }).url), 'invalid_target');
    });
  });
});

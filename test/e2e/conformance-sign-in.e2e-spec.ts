import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { signIn } from '../../scripts/conformance/sign-in.mjs';
import { createApp } from '../../src/app.factory';
import { pkce } from '../support/browser';
import { freePort } from '../support/built-service';
import { testConfig } from '../support/create-test-app';
import { jwtPayload, postForm } from '../support/http';
import { startMetadataDocumentServer, type MetadataDocumentServer } from '../support/metadata-document-server';

/**
 * scripts/conformance/sign-in.mjs, the user of the headless conformance run (`npm run conformance`):
 * it signs alice in through Tollgate's login and consent forms and answers the redirect back to the
 * client, whose code then buys a token.
 */
describe('the conformance run sign-in driver', () => {
  let tollgate: NestFastifyApplication;
  let issuer: string;
  let documents: MetadataDocumentServer;
  let clientId: string;
  const redirectUri = 'http://127.0.0.1:9/callback';

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    tollgate = await createApp(testConfig({ ISSUER: issuer }));
    await tollgate.listen({ port, host: '127.0.0.1' });
    documents = await startMetadataDocumentServer();
    clientId = documents.urlOf('/client.json');
    documents.document('/client.json', { client_id: clientId, client_name: 'Conformance', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
  }, 60_000);

  afterAll(async () => {
    await documents?.close();
    await tollgate?.close();
  });

  function authorizeUrl(parameters: Record<string, string>): string {
    return `${issuer}/connect/authorize?${new URLSearchParams({ response_type: 'code', code_challenge_method: 'S256', state: 'xyz', ...parameters })}`;
  }

  it('signs alice in through the login and consent pages of a metadata-document client and answers the redirect with a code that buys her token', async () => {
    const { verifier, challenge } = pkce();
    const callback = new URL(
      await signIn(authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, scope: 'openid notes', code_challenge: challenge }), {
        username: 'alice',
        password: 'alice',
      }),
    );

    expect({ at: `${callback.origin}${callback.pathname}`, state: callback.searchParams.get('state'), iss: callback.searchParams.get('iss') }).toEqual({
      at: redirectUri,
      state: 'xyz',
      iss: issuer,
    });
    const token = await postForm(`${issuer}/connect/token`, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    expect(jwtPayload(token.body.access_token)).toMatchObject({ sub: '1', client_id: clientId });
  });

  it('signs in where no consent page is shown (a first-party client)', async () => {
    const callback = new URL(
      await signIn(authorizeUrl({ client_id: 'spa', redirect_uri: 'http://127.0.0.1:5173/callback', scope: 'openid', code_challenge: pkce().challenge }), {
        username: 'alice',
        password: 'alice',
      }),
    );
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('fails, saying so, when the password is wrong instead of reporting a sign-in', async () => {
    const url = authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, scope: 'notes', code_challenge: pkce().challenge });
    await expect(signIn(url, { username: 'alice', password: 'wrong' })).rejects.toThrow(/did not go past the login page|ended on a 4\d\d page/);
  });

  it('answers the error redirect of a refused request, for the suite to judge', async () => {
    const callback = new URL(
      await signIn(authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, scope: 'no-such-scope', code_challenge: pkce().challenge }), {
        username: 'alice',
        password: 'alice',
      }),
    );
    expect(callback.searchParams.get('error')).toBe('invalid_scope');
  });
});

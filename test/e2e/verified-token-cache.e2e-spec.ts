import { SigningKeyRotator } from '../../src/tokens/keys/signing-key.rotator';
import { SigningKeyStore } from '../../src/tokens/keys/signing-key.store';
import { emptyDatabase, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, request, userAccessToken } from '../support/http';
import { eventually, FRONTEND, revoke } from '../support/token-lifecycle';

const userinfo = (server: TestServer, token: string) => request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } });
const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid as string;

/** docs/tokens.md#validation: a token presented again (kept from its second validation) skips the signature check, and loses none of the other checks. */
describe('the verified-token cache', () => {
  describe('on the run database', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ CACHE_TTL_SECONDS: '1', VERIFIED_TOKEN_CACHE_SECONDS: '300' });
    });
    afterAll(() => server?.close());

    it('refuses a cached token at once on this instance when it is revoked', async () => {
      const token = await userAccessToken(server.url, 'alice', 'openid api1');
      expect((await userinfo(server, token)).status).toBe(200);
      expect((await userinfo(server, token)).status).toBe(200);
      expect((await revoke(server.url, FRONTEND, { token })).status).toBe(200);
      expect((await userinfo(server, token)).status).toBe(401);
    });

    it('refuses a cached token within CACHE_TTL_SECONDS of its user being disabled', async () => {
      const username = uniqueName('dora');
      const subject = await insertUser({ username, password: username });
      const token = await userAccessToken(server.url, username, 'openid');
      expect(jwtPayload(token).sub).toBe(subject);
      expect((await userinfo(server, token)).status).toBe(200);
      expect((await userinfo(server, token)).status).toBe(200);
      await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subject]);
      // Within CACHE_TTL_SECONDS, not at the token's expiry an hour from now (eventually fails past 3 s plus its load margin).
      await eventually(async () => (await userinfo(server, token)).status === 401, 3000);
    });
  });

  describe('on a database of its own', () => {
    let database: { url: string; drop: () => Promise<void> };
    let server: TestServer;
    beforeAll(async () => {
      database = await emptyDatabase();
      server = await startTestServer({ DATABASE_URL: database.url });
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('drops the tokens a signing key verified once that key is no longer published', async () => {
      const token = await userAccessToken(server.url, 'alice', 'openid api1');
      expect((await userinfo(server, token)).status).toBe(200);
      expect((await userinfo(server, token)).status).toBe(200);
      await server.app.get(SigningKeyRotator).rotateNow({ immediately: true });
      const store = server.app.get(SigningKeyStore);
      await store.reload();
      expect((await userinfo(server, token)).status).toBe(200);

      await sqlOn(database.url, 'DELETE FROM signing_keys WHERE kid = $1', [kidOf(token)]);
      await store.reload();
      const refused = await userinfo(server, token);
      expect(refused.status).toBe(401);
      expect(refused.body.error_description).toBe('the token was not signed with a published key');
    });
  });
});

async function sqlOn(url: string, text: string, values: unknown[]): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

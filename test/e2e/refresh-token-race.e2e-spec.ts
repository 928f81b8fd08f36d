import { createHash } from 'node:crypto';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import type { HttpResponse } from '../support/http';
import { eventually, passwordTokens, refresh, userinfo } from '../support/token-lifecycle';

const FULL_SCOPE = 'openid profile api1 offline_access';
const hashOf = (handle: string) => createHash('sha256').update(handle).digest('base64url');

/**
 * docs/tokens.md#refresh-tokens: concurrent uses of one refresh token on two instances. A duplicate
 * within the grace window after the winner's rotation loses with invalid_grant and revokes nothing;
 * a use after the window is reuse (RFC 9700 §4.14.2) and revokes the family.
 */
describe('refresh token rotation — concurrent duplicates and reuse', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** The winner's tokens still work: the access token on both instances, and the refresh token rotates. */
  async function expectWinnerIntact(winner: HttpResponse): Promise<void> {
    expect((await userinfo(a.url, winner.body.access_token)).status).toBe(200);
    expect((await userinfo(b.url, winner.body.access_token)).status).toBe(200);
    expect((await refresh(b.url, winner.body.refresh_token)).status).toBe(200);
  }

  it('answers a duplicate sent just after the winner rotated, on another instance, with invalid_grant and leaves the winner intact', async () => {
    const { refresh_token: handle } = await passwordTokens(a.url, FULL_SCOPE);
    const winner = await refresh(a.url, handle!);
    expect(winner.status).toBe(200);
    // Stamped after the winner's commit, within the grace window: a concurrent duplicate, not reuse.
    expectTokenError(await refresh(b.url, handle!), 400, 'invalid_grant');
    expectTokenError(await refresh(a.url, handle!), 400, 'invalid_grant');
    await expectWinnerIntact(winner);
    const revoked = await sql<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens WHERE token_hash = $1 AND revoked_at IS NOT NULL', [
      hashOf(handle!),
    ]);
    expect(revoked).toEqual([{ n: 0 }]);
  });

  it('lets exactly one of many concurrent uses through on two instances, round after round, and revokes nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const { refresh_token: handle } = await passwordTokens(a.url, FULL_SCOPE);
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => refresh(i % 2 === 0 ? a.url : b.url, handle!)));
      const winners = responses.filter((response) => response.status === 200);
      expect(winners.length).toBe(1);
      for (const response of responses) if (response.status !== 200) expectTokenError(response, 400, 'invalid_grant');
      await expectWinnerIntact(winners[0]);
    }
  });

  it('treats a use after the grace window as reuse: invalid_grant, and the family and its access tokens are revoked on both instances', async () => {
    const { refresh_token: handle } = await passwordTokens(a.url, FULL_SCOPE);
    const winner = await refresh(a.url, handle!);
    expect(winner.status).toBe(200);
    // As if the token had been used up a minute ago, long past the grace window.
    await sql(`UPDATE refresh_tokens SET consumed_at = now() - interval '1 minute' WHERE token_hash = $1`, [hashOf(handle!)]);
    expectTokenError(await refresh(b.url, handle!), 400, 'invalid_grant');
    expectTokenError(await refresh(a.url, winner.body.refresh_token), 400, 'invalid_grant');
    expect((await userinfo(b.url, winner.body.access_token)).status).toBe(401);
    await eventually(async () => (await userinfo(a.url, winner.body.access_token)).status === 401, 5000);
  });
});

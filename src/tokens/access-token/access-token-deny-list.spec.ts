import { AccessTokenDenyList, DENY_LIST_POLL_INTERVAL_MS } from './access-token-deny-list';
import type { RevokedAccessToken } from './revoked-access-token';
import { RevokedAccessTokenRepository, type RevocationsRead } from './revoked-access-token.repository';

interface Row extends RevokedAccessToken {
  readonly revokedAt: Date;
}

/** The shared table, with a controllable database clock. */
class FakeRevokedAccessTokens extends RevokedAccessTokenRepository {
  readonly rows: Row[] = [];
  readonly reads: (Date | undefined)[] = [];
  clock = new Date('2030-01-01T00:00:00Z');
  failure?: Error;

  async add(tokens: readonly RevokedAccessToken[]): Promise<void> {
    for (const token of tokens) if (!this.rows.some((row) => row.jwtId === token.jwtId)) this.rows.push({ ...token, revokedAt: this.clock });
  }
  async findRevokedSince(since: Date | undefined, liveAfter: Date): Promise<RevocationsRead> {
    if (this.failure) throw this.failure;
    this.reads.push(since);
    const tokens = this.rows.filter((row) => (!since || row.revokedAt >= since) && row.expiresAt * 1000 > liveAfter.getTime());
    return { tokens: tokens.map(({ jwtId, expiresAt }) => ({ jwtId, expiresAt })), readAt: this.clock };
  }
  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const before = this.rows.length;
    this.rows.splice(0, this.rows.length, ...this.rows.filter((row) => row.expiresAt * 1000 >= cutoff.getTime()));
    return before - this.rows.length;
  }
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('AccessTokenDenyList', () => {
  describe('refresh', () => {
    it('passes a database failure on and keeps what it knew', async () => {
      const table = new FakeRevokedAccessTokens();
      const denyList = new AccessTokenDenyList(table);
      await table.add([{ jwtId: 'a', expiresAt: inAnHour() }]);
      await denyList.refresh();
      table.failure = new Error('connection terminated');
      await expect(denyList.refresh()).rejects.toThrow('connection terminated');
      expect(denyList.isRevoked('a')).toBe(true);
    });

    it('reads everything first, then only what was revoked since shortly before the previous read', async () => {
      const table = new FakeRevokedAccessTokens();
      const denyList = new AccessTokenDenyList(table);
      await denyList.refresh();
      table.clock = new Date('2030-01-01T00:00:01Z');
      await denyList.refresh();
      expect(table.reads[0]).toBeUndefined();
      // 15 s before the database clock of the first read: a late commit is still caught.
      expect(table.reads[1]).toEqual(new Date('2029-12-31T23:59:45Z'));
    });

    it('learns revocations another instance made in the shared table', async () => {
      const table = new FakeRevokedAccessTokens();
      const here = new AccessTokenDenyList(table);
      const elsewhere = new AccessTokenDenyList(table);
      await here.refresh();
      await elsewhere.revoke([{ jwtId: 'b', expiresAt: inAnHour() }]);
      expect(here.isRevoked('b')).toBe(false);
      await here.refresh();
      expect(here.isRevoked('b')).toBe(true);
    });

    it('shares one read between concurrent callers', async () => {
      const table = new FakeRevokedAccessTokens();
      const denyList = new AccessTokenDenyList(table);
      await Promise.all([denyList.refresh(), denyList.refresh(), denyList.refresh()]);
      expect(table.reads).toHaveLength(1);
    });
  });

  describe('revoke', () => {
    it('does nothing for no tokens', async () => {
      const table = new FakeRevokedAccessTokens();
      await new AccessTokenDenyList(table).revoke([]);
      expect(table.rows).toEqual([]);
    });

    it('denies a token here at once and records it for the other instances', async () => {
      const table = new FakeRevokedAccessTokens();
      const denyList = new AccessTokenDenyList(table);
      const expiresAt = inAnHour();
      await denyList.revoke([{ jwtId: 'c', expiresAt }]);
      expect(denyList.isRevoked('c')).toBe(true);
      expect(table.rows).toEqual([expect.objectContaining({ jwtId: 'c', expiresAt })]);
      expect(table.reads).toEqual([]);
    });
  });

  describe('purge', () => {
    it('deletes only entries of tokens expired beyond the grace period', async () => {
      const table = new FakeRevokedAccessTokens();
      const now = Math.floor(Date.now() / 1000);
      await table.add([
        { jwtId: 'long-expired', expiresAt: now - 3600 },
        { jwtId: 'just-expired', expiresAt: now - 10 },
        { jwtId: 'live', expiresAt: now + 10 },
      ]);
      expect(await new AccessTokenDenyList(table).purge()).toBe(1);
      expect(table.rows.map((row) => row.jwtId)).toEqual(['just-expired', 'live']);
    });
  });

  describe('onModuleInit', () => {
    it('loads the list before serving and stops polling on destroy', async () => {
      const table = new FakeRevokedAccessTokens();
      await table.add([{ jwtId: 'd', expiresAt: inAnHour() }]);
      const denyList = new AccessTokenDenyList(table);
      jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
      try {
        await denyList.onModuleInit();
        expect(denyList.isRevoked('d')).toBe(true);
        expect(table.reads).toHaveLength(1);
        await jest.advanceTimersByTimeAsync(DENY_LIST_POLL_INTERVAL_MS);
        expect(table.reads).toHaveLength(2);
        denyList.onModuleDestroy();
        await jest.advanceTimersByTimeAsync(5 * DENY_LIST_POLL_INTERVAL_MS);
        expect(table.reads).toHaveLength(2);
      } finally {
        jest.useRealTimers();
      }
    });
  });
});

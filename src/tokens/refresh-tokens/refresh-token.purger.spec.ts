import { RefreshTokenPurger } from './refresh-token.purger';
import type { RefreshTokenRepository } from './refresh-token.repository';

type ExpiredTokenDeletion = Pick<RefreshTokenRepository, 'deleteExpiredBefore'>;

const NOW = new Date('2030-01-02T00:00:00Z');
const HOUR = 60 * 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

/**
 * A refresh_tokens table as groups of rows sharing an expiry time: deletes at most `limit` rows
 * expired before the cutoff, as the SQL does.
 */
class TokenTable implements ExpiredTokenDeletion {
  readonly calls: { cutoff: Date; limit: number }[] = [];
  private readonly groups: { expiresAt: Date; rows: number }[];

  constructor(expiries: Date[], rowsEach = 1) {
    this.groups = expiries.map((expiresAt) => ({ expiresAt, rows: rowsEach }));
  }

  get rows(): number {
    return this.groups.reduce((sum, group) => sum + group.rows, 0);
  }

  remaining(): Date[] {
    return this.groups.filter((group) => group.rows > 0).map((group) => group.expiresAt);
  }

  async deleteExpiredBefore(cutoff: Date, limit: number): Promise<number> {
    this.calls.push({ cutoff, limit });
    let deleted = 0;
    for (const group of this.groups) {
      if (group.expiresAt >= cutoff) continue;
      const taken = Math.min(group.rows, limit - deleted);
      group.rows -= taken;
      deleted += taken;
    }
    return deleted;
  }
}

describe('RefreshTokenPurger', () => {
  describe('purge', () => {
    it('passes a database failure on', async () => {
      const repository: ExpiredTokenDeletion = { deleteExpiredBefore: async () => Promise.reject(new Error('ECONNREFUSED')) };
      await expect(new RefreshTokenPurger(repository).purge(NOW)).rejects.toThrow('ECONNREFUSED');
    });

    it('keeps unexpired tokens and those expired within the last day, for inspection', async () => {
      const table = new TokenTable([new Date(NOW.getTime() + HOUR), NOW, ago(HOUR), ago(23 * HOUR)]);
      expect(await new RefreshTokenPurger(table).purge(NOW)).toBe(0);
      expect(table.remaining()).toHaveLength(4);
    });

    it('deletes the tokens expired more than a day ago, and only those', async () => {
      const kept = [ago(HOUR), new Date(NOW.getTime() + HOUR)];
      const table = new TokenTable([ago(25 * HOUR), ...kept, ago(30 * 24 * HOUR)]);
      expect(await new RefreshTokenPurger(table).purge(NOW)).toBe(2);
      expect(table.remaining()).toEqual(kept);
      expect(table.calls[0].cutoff).toEqual(ago(24 * HOUR));
    });

    it('deletes a large backlog in bounded batches until a short one comes back', async () => {
      const table = new TokenTable([ago(48 * HOUR)], 12_000);
      expect(await new RefreshTokenPurger(table).purge(NOW)).toBe(12_000);
      expect(table.rows).toBe(0);
      expect(table.calls.map((call) => call.limit)).toEqual([5000, 5000, 5000]);
    });

    it('stops after a bounded number of batches, leaving the rest to the next run', async () => {
      const table = new TokenTable([ago(48 * HOUR)], 600_000);
      expect(await new RefreshTokenPurger(table).purge(NOW)).toBe(500_000);
      expect(table.rows).toBe(100_000);
    });
  });

  describe('onModuleInit', () => {
    beforeEach(() => jest.useFakeTimers({ now: NOW }));
    afterEach(() => jest.useRealTimers());

    it('purges every 15 minutes, not at start, and no more once destroyed', async () => {
      const table = new TokenTable([ago(48 * HOUR)]);
      const purger = new RefreshTokenPurger(table);
      purger.onModuleInit();
      await jest.advanceTimersByTimeAsync(15 * 60_000 - 1);
      expect(table.calls).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(table.calls).toHaveLength(1);
      expect(table.rows).toBe(0);
      purger.onModuleDestroy();
      await jest.advanceTimersByTimeAsync(60 * 60_000);
      expect(table.calls).toHaveLength(1);
    });
  });
});

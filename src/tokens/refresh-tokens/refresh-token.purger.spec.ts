import { RefreshTokenPurger } from './refresh-token.purger';
import type { RefreshTokenRepository } from './refresh-token.repository';

type ExpiredTokenDeletion = Pick<RefreshTokenRepository, 'deleteExpiredBefore'>;

function repositoryDeleting(counts: number[]): { repository: ExpiredTokenDeletion; cutoffs: Date[] } {
  const cutoffs: Date[] = [];
  const repository: ExpiredTokenDeletion = {
    async deleteExpiredBefore(cutoff: Date) {
      cutoffs.push(cutoff);
      return counts.shift() ?? 0;
    },
  };
  return { repository, cutoffs };
}

describe('RefreshTokenPurger', () => {
  describe('purge', () => {
    it('passes a database failure on', async () => {
      const repository: ExpiredTokenDeletion = { deleteExpiredBefore: async () => Promise.reject(new Error('ECONNREFUSED')) };
      await expect(new RefreshTokenPurger(repository).purge()).rejects.toThrow('ECONNREFUSED');
    });

    it('deletes tokens expired more than a day ago', async () => {
      const { repository, cutoffs } = repositoryDeleting([3]);
      expect(await new RefreshTokenPurger(repository).purge(new Date('2030-01-02T00:00:00Z'))).toBe(3);
      expect(cutoffs).toEqual([new Date('2030-01-01T00:00:00Z')]);
    });

    it('goes on in batches while full batches come back', async () => {
      const { repository, cutoffs } = repositoryDeleting([5000, 5000, 12]);
      expect(await new RefreshTokenPurger(repository).purge()).toBe(10_012);
      expect(cutoffs).toHaveLength(3);
    });
  });

  describe('onModuleInit', () => {
    it('schedules the purge without running it at start', () => {
      const { repository, cutoffs } = repositoryDeleting([]);
      const purger = new RefreshTokenPurger(repository);
      purger.onModuleInit();
      purger.onModuleDestroy();
      expect(cutoffs).toEqual([]);
    });
  });
});

import { loadConfig } from './app.config';
import { readWorkersConfig } from './workers.config';
import { configProblems } from '../../../test/support/config-problems';

const POSTGRES = 'postgresql://tollgate@db.internal:5432/tollgate';

describe('WORKERS', () => {
  it.each(['0', '65', '-1', '1.5', '2e1', '0x2', ' 2', 'AUTO', 'all', '99999999999999999999'])('refuses WORKERS=%j', (value) => {
    expect(configProblems({ DATABASE_URL: POSTGRES, WORKERS: value })).toEqual(['WORKERS must be an integer from 1 to 64, or "auto"']);
  });

  it('refuses more than one worker with the embedded database, saying why', () => {
    expect(configProblems({ WORKERS: '2' })).toEqual([
      'WORKERS must be 1 without DATABASE_URL: the embedded database serves one process (use a PostgreSQL server to run 2)',
    ]);
  });

  it('reports a bad WORKERS with the other bad variables', () => {
    expect(configProblems({ PORT: 'x', WORKERS: 'many', DATABASE_URL: POSTGRES })).toEqual([
      'PORT must be an integer from 0 to 65535',
      'WORKERS must be an integer from 1 to 64, or "auto"',
    ]);
  });

  it('defaults to one process, with or without DATABASE_URL, and treats an empty value as unset', () => {
    expect(loadConfig({}).workers).toEqual({ count: 1 });
    expect(loadConfig({ DATABASE_URL: POSTGRES }).workers).toEqual({ count: 1 });
    expect(loadConfig({ WORKERS: '' }).workers).toEqual({ count: 1 });
  });

  it('accepts WORKERS=1 with the embedded database', () => {
    expect(loadConfig({ WORKERS: '1' }).workers).toEqual({ count: 1 });
  });

  it('reads a number of workers from 1 to 64 with DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: POSTGRES, WORKERS: '2' }).workers).toEqual({ count: 2 });
    expect(loadConfig({ DATABASE_URL: POSTGRES, WORKERS: '64' }).workers).toEqual({ count: 64 });
  });

  describe('auto', () => {
    it('is one worker per core with DATABASE_URL', () => {
      expect(readWorkersConfig({ DATABASE_URL: POSTGRES, WORKERS: 'auto' }, [], 6)).toEqual({ count: 6 });
      expect(readWorkersConfig({ DATABASE_URL: POSTGRES, WORKERS: 'auto' }, [], 1)).toEqual({ count: 1 });
    });

    it('is at most 64 workers', () => {
      expect(readWorkersConfig({ DATABASE_URL: POSTGRES, WORKERS: 'auto' }, [], 192)).toEqual({ count: 64 });
    });

    it('runs one process with the embedded database, with the reason to log', () => {
      const problems: string[] = [];
      expect(readWorkersConfig({ WORKERS: 'auto' }, problems, 8)).toEqual({
        count: 1,
        singleProcessReason: 'WORKERS=auto runs one process: the embedded database (no DATABASE_URL) serves one process',
      });
      expect(problems).toEqual([]);
    });
  });
});

import type { LoggerService } from '@nestjs/common';
import { StartupFailure } from '../logging/startup-failure';
import { connectWithRetries, maskedDatabaseUrl } from './database-connection';

describe('maskedDatabaseUrl', () => {
  it('masks the password of the user part and of a password parameter, and nothing else', () => {
    expect(maskedDatabaseUrl('postgresql://tollgate:s%40cret@db.internal:5432/tollgate?sslmode=require&password=other')).toBe(
      'postgresql://tollgate:****@db.internal:5432/tollgate?sslmode=require&password=****',
    );
    expect(maskedDatabaseUrl('postgresql://postgres@127.0.0.1:5432/postgres')).toBe('postgresql://postgres@127.0.0.1:5432/postgres');
  });

  it('shows no part of a value that is not a PostgreSQL URL', () => {
    expect(maskedDatabaseUrl('tollgate:secret@db')).toBe('(not a PostgreSQL URL)');
    expect(maskedDatabaseUrl('db.internal secret')).toBe('(not a PostgreSQL URL)');
  });
});

describe('connectWithRetries', () => {
  const warnings: string[] = [];
  const logger: LoggerService = { log: () => undefined, error: () => undefined, warn: (message: string) => void warnings.push(message) };
  const where = 'DATABASE_URL=postgresql://tollgate:****@db/tollgate';

  beforeEach(() => (warnings.length = 0));

  it('fails at once, in one line naming where and why, when the server itself refuses (a SQLSTATE)', async () => {
    const refusal = Object.assign(new Error('password authentication failed for user "tollgate"'), { code: '28P01' });
    let attempts = 0;
    const failure = await connectWithRetries(() => (attempts++, Promise.reject(refusal)), where, logger).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupFailure);
    expect((failure as Error).message).toBe(`Cannot connect to the database at ${where}: password authentication failed for user "tollgate"`);
    expect({ attempts, warnings }).toEqual({ attempts: 1, warnings: [] });
  });

  it('names every reason of a refused localhost (an AggregateError without a message)', async () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const failure = await connectWithRetries(
      () => Promise.reject(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')])),
      where,
      logger,
      1,
    ).catch((error: unknown) => error as Error);
    expect(failure.message).toBe(`Cannot connect to the database at ${where}: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432`);
  });

  it('returns what connect gives', async () => {
    await expect(connectWithRetries(() => Promise.resolve('connected'), where, logger)).resolves.toBe('connected');
  });
});

import { isDatabaseUnavailable, isQueryConnectionLost } from './database-unavailable';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a unique violation (23505)', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error (42601)', withCode('42601')],
    ['a serialization failure (40001)', withCode('40001')],
    ['a prerequisite not met, other than a database closed to connections (55000)', withCode('55000', 'cannot drop the currently open database')],
    ['a plain error', new Error('boom')],
    ['a node error unrelated to the network', withCode('ENOENT')],
    ['undefined', undefined],
    ['null', null],
    ['a string naming a network code', 'ECONNREFUSED'],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops following causes after five levels', () => {
    let error: unknown = withCode('ECONNREFUSED');
    for (let level = 0; level < 5; level++) error = new Error(`wrapped ${level}`, { cause: error });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN'])('is true for the network error %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    ['08006 (connection failure)', '08006'],
    ['08001 (unable to connect)', '08001'],
    ['57P01 (admin shutdown)', '57P01'],
    ['57P03 (cannot connect now)', '57P03'],
    ['53300 (too many connections)', '53300'],
    ['53100 (disk full)', '53100'],
    ['57014 (statement cancelled by statement_timeout)', '57014'],
    ['57P05 (idle-session timeout)', '57P05'],
    ['25P03 (idle-in-transaction timeout)', '25P03'],
  ])('is true for SQLSTATE %s', (_, code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    'timeout exceeded when trying to connect',
    'Connection terminated unexpectedly',
    'Client has encountered a connection error and is not queryable',
    'the database system is starting up',
    'the database system is shutting down',
    'database "tollgate" is not currently accepting connections',
  ])('is true for the pool message "%s"', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it('looks through a TypeORM driverError and through causes', () => {
    expect(isDatabaseUnavailable({ name: 'QueryFailedError', message: 'query failed', driverError: withCode('57P01') })).toBe(true);
    expect(isDatabaseUnavailable(new Error('lookup failed', { cause: new Error('x', { cause: withCode('ECONNRESET') }) }))).toBe(true);
  });

  it('is true for the AggregateError Node raises when every address refuses', () => {
    const refused = Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it.each(['Query read timeout', 'Client was closed and is not queryable', 'Connection terminated unexpectedly'])(
    'is true for pg\'s "%s", a database that stopped answering',
    (message) => {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
      expect(isDatabaseUnavailable(Object.assign(new Error('query failed'), { driverError: new Error(message) }))).toBe(true);
    },
  );
});

describe('isQueryConnectionLost', () => {
  it.each(['read ECONNRESET', 'write EPIPE', 'connect ECONNREFUSED 127.0.0.1:5432'])(
    'is true for a query\'s socket error "%s" without its code, as an error or as text',
    (message) => {
      expect(isQueryConnectionLost(new Error(message))).toBe(true);
      expect(isQueryConnectionLost(message)).toBe(true);
      expect(isDatabaseUnavailable(new Error(message))).toBe(false);
    },
  );

  it('is false for a query that failed otherwise', () => {
    expect(isQueryConnectionLost('duplicate key value violates unique constraint "users_pkey"')).toBe(false);
    expect(isQueryConnectionLost(new Error('syntax error at or near "SELEC"'))).toBe(false);
  });
});

import pino, { type Level } from 'pino';
import { NestPinoLogger } from './nest-pino.logger';

function capture(level: Level | 'silent'): { records: Record<string, unknown>[]; nest: NestPinoLogger } {
  const records: Record<string, unknown>[] = [];
  const nest = new NestPinoLogger(pino({ level }, { write: (line: string) => void records.push(JSON.parse(line)) }));
  return { records, nest };
}

function logAtEveryLevel(nest: NestPinoLogger): void {
  nest.fatal('fatal');
  nest.error('error');
  nest.warn('warn');
  nest.log('log');
  nest.debug('debug');
  nest.verbose('verbose');
}

describe('NestPinoLogger', () => {
  it('writes nothing at LOG_LEVEL=silent', () => {
    const { records, nest } = capture('silent');
    logAtEveryLevel(nest);
    expect(records).toEqual([]);
  });

  it("writes Nest's messages at and above the pino level", () => {
    const { records, nest } = capture('warn');
    logAtEveryLevel(nest);
    expect(records.map(({ msg }) => msg)).toEqual(['fatal', 'error', 'warn']);
  });

  it("writes Nest's log as pino's info and verbose as pino's trace", () => {
    const { records, nest } = capture('trace');
    logAtEveryLevel(nest);
    expect(records.map(({ level, msg }) => [msg, level])).toEqual([
      ['fatal', 60],
      ['error', 50],
      ['warn', 40],
      ['log', 30],
      ['debug', 20],
      ['verbose', 10],
    ]);
  });

  it('records the context Nest appends as its own field', () => {
    const { records, nest } = capture('info');
    nest.warn('slow query', 'TypeORM');
    nest.error('Database unavailable', undefined, 'Database');
    expect(records).toMatchObject([
      { level: 40, context: 'TypeORM', msg: 'slow query' },
      { level: 50, context: 'Database', msg: 'Database unavailable' },
    ]);
    expect(records[1]).not.toHaveProperty('stack');
  });

  it("keeps an error's stack apart from its message", () => {
    const { records, nest } = capture('info');
    nest.error('server_error: TypeError: x is undefined', 'TypeError: x is undefined\n    at f (a.js:1:1)', 'OAuth');
    expect(records).toMatchObject([
      { level: 50, context: 'OAuth', msg: 'server_error: TypeError: x is undefined', stack: 'TypeError: x is undefined\n    at f (a.js:1:1)' },
    ]);
  });

  it('takes a lone stack for a stack, not for the context', () => {
    const { records, nest } = capture('info');
    nest.error('boom', 'Error: boom\n    at f (a.js:1:1)');
    nest.error('boom', 'OAuth');
    expect(records).toEqual([
      expect.objectContaining({ msg: 'boom', stack: 'Error: boom\n    at f (a.js:1:1)' }),
      expect.objectContaining({ msg: 'boom', context: 'OAuth' }),
    ]);
    expect(records[0]).not.toHaveProperty('context');
  });

  it('writes an Error given as the message with its type and message', () => {
    const { records, nest } = capture('info');
    nest.error(new RangeError('out of range'));
    expect(records).toMatchObject([{ level: 50, msg: 'out of range', err: { type: 'RangeError', message: 'out of range' } }]);
  });
});

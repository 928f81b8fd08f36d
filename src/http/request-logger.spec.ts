import pino from 'pino';
import { nestLogLevels, requestChildLoggerFactory } from './request-logger';

describe('requestChildLoggerFactory', () => {
  it.each(['info', 'debug', 'trace'] as const)('keeps Fastify\'s child logger per request at %s, where request logs are written', (level) => {
    expect(requestChildLoggerFactory(level)).toBeUndefined();
  });

  it.each(['warn', 'error', 'fatal', 'silent'] as const)('logs a request\'s records through the root logger at %s', (level) => {
    const root = pino({ level });
    const factory = requestChildLoggerFactory(level);
    expect(factory).toBeInstanceOf(Function);
    expect(factory!.call(undefined as never, root, { reqId: 'req-1' }, {}, undefined as never)).toBe(root);
  });
});

describe('nestLogLevels', () => {
  it('shows Nest the levels at and above the pino level', () => {
    expect(nestLogLevels('warn')).toEqual(['fatal', 'error', 'warn']);
    expect(nestLogLevels('silent')).toEqual([]);
  });
});

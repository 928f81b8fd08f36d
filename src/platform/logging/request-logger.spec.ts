import pino from 'pino';
import { loggablePath, requestChildLoggerFactory } from './request-logger';

describe('requestChildLoggerFactory', () => {
  it.each(['info', 'debug', 'trace'] as const)("keeps Fastify's child logger per request at %s, where request logs are written", (level) => {
    expect(requestChildLoggerFactory(level)).toBeUndefined();
  });

  it.each(['warn', 'error', 'fatal', 'silent'] as const)("logs a request's records through the root logger at %s", (level) => {
    const root = pino({ level });
    const factory = requestChildLoggerFactory(level);
    expect(factory).toBeInstanceOf(Function);
    expect(factory!.call(undefined as never, root, { reqId: 'req-1' }, {}, undefined as never)).toBe(root);
  });
});

describe('loggablePath', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';

  it('masks a JWT placed in the path', () => {
    expect(loggablePath(`/connect/userinfo/${jwt}`)).toBe('/connect/userinfo/[redacted]');
  });

  it('masks a long opaque segment such as a refresh token handle, and drops the query string', () => {
    expect(loggablePath(`/connect/token/${'A'.repeat(43)}?refresh_token=x`)).toBe('/connect/token/[redacted]');
  });

  it('drops path parameters after ";" as it drops the query string', () => {
    expect(loggablePath('/connect/authorize;code=abc')).toBe('/connect/authorize');
    expect(loggablePath('/connect/authorize;a=1;code=abc?state=x')).toBe('/connect/authorize');
    expect(loggablePath('/connect;code=abc/authorize')).toBe('/connect');
    expect(loggablePath('/connect/authorize#code=abc')).toBe('/connect/authorize');
  });

  it('keeps ordinary paths as they are', () => {
    expect(loggablePath('/.well-known/openid-configuration/jwks')).toBe('/.well-known/openid-configuration/jwks');
    expect(loggablePath('/connect/userinfo?access_token=x')).toBe('/connect/userinfo');
  });
});

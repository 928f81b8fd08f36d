import { availableParallelism } from 'node:os';
import { loadConfig } from './app.config';
import { configProblems } from '../../../test/support/config-problems';

describe('throttling settings', () => {
  it('defaults to the limits of docs/throttling.md, quotas off, no trusted proxy', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimits: {
        windowSeconds: 60,
        perClient: 0,
        perAddress: 0,
        authFailures: 20,
        anonymousAuthFailures: 100,
        signInFailures: 5,
        signInBackOffSeconds: 30,
        signInMaxBackOffSeconds: 900,
        signInAddressFailures: 50,
        signInAddressWindowSeconds: 300,
        deviceCookieDays: 90,
        passwordCheckConcurrency: Math.max(1, Math.min(4, availableParallelism() - 1)),
        passwordCheckQueueLength: 32,
        passwordCheckQueueTimeoutMs: 2000,
        memoryKeys: 100_000,
        redisUrl: undefined,
        redisTimeoutMs: 100,
      },
      trustProxy: undefined,
    });
  });

  describe('TRUST_PROXY', () => {
    it.each([
      ['a hop count', '2', 2],
      ['an address', '127.0.0.1', ['127.0.0.1']],
      ['addresses and CIDR ranges', '10.0.0.0/8, 192.0.2.1,2001:db8::/32', ['10.0.0.0/8', '192.0.2.1', '2001:db8::/32']],
      ['a named range', 'loopback,uniquelocal', ['loopback', 'uniquelocal']],
    ])('reads %s', (_, value, trustProxy) => {
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
    });

    it.each(['true', '0', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1', '127.0.0.1,'])('refuses %j', (value) => {
      expect(configProblems({ TRUST_PROXY: value })).toEqual(['TRUST_PROXY must be a hop count, or comma-separated IP addresses or CIDR ranges']);
    });
  });

  it.each([
    ['SIGN_IN_BACKOFF_SECONDS', '0', 'SIGN_IN_BACKOFF_SECONDS must be an integer from 1 to 86400'],
    ['RATE_LIMIT_AUTH_FAILURES', '-1', 'RATE_LIMIT_AUTH_FAILURES must be a whole number'],
    ['REDIS_URL', 'http://cache:6379', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['REDIS_TIMEOUT_MS', '0', 'REDIS_TIMEOUT_MS must be an integer from 1 to 10000'],
  ])('refuses %s=%j', (name, value, problem) => {
    expect(configProblems({ [name]: value })).toEqual([problem]);
  });
});

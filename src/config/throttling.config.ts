import { isIP } from 'node:net';

/** Throttling (docs/throttling.md); 0 turns a limit off. Shared through Redis when `redisUrl` is set. */
export interface RateLimitConfig {
  readonly windowSeconds: number;
  /** Quotas on authenticated requests, per client and per address; off by default. */
  readonly perClient: number;
  readonly perAddress: number;
  /** Failed client authentications per (address, client_id). */
  readonly authFailures: number;
  /** Failed client authentications naming no client, per address. */
  readonly anonymousAuthFailures: number;
  readonly signInFailures: number;
  readonly signInBackOffSeconds: number;
  readonly signInMaxBackOffSeconds: number;
  readonly signInAddressFailures: number;
  readonly signInAddressWindowSeconds: number;
  /** Ordinary counters kept in memory (least recently used go first); blocking keys are kept apart. */
  readonly memoryKeys: number;
  readonly redisUrl: string | undefined;
  readonly redisTimeoutMs: number;
}

/** A hop count, or addresses / CIDR ranges / proxy-addr range names. */
export type TrustProxy = number | readonly string[];

type Read = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, expected: string) => T;

/** The throttling settings of `AppConfig` (docs/throttling.md), read by `loadConfig` (app.config.ts). */
export function readThrottlingConfig(read: Read): { rateLimits: RateLimitConfig; trustProxy: TrustProxy | undefined } {
  const count = (name: string, fallback: number) => read(name, fallback, (raw) => integerIn(raw, 0, 1_000_000_000), 'a whole number');
  const seconds = (name: string, fallback: number) => read(name, fallback, (raw) => integerIn(raw, 1, 86_400), 'an integer from 1 to 86400');
  const rateLimits: RateLimitConfig = {
    windowSeconds: seconds('RATE_LIMIT_WINDOW_SECONDS', 60),
    perClient: count('RATE_LIMIT_PER_CLIENT', 0),
    perAddress: count('RATE_LIMIT_PER_ADDRESS', 0),
    authFailures: count('RATE_LIMIT_AUTH_FAILURES', 20),
    anonymousAuthFailures: count('RATE_LIMIT_ANONYMOUS_AUTH_FAILURES', 100),
    signInFailures: count('SIGN_IN_FAILURES_BEFORE_BACKOFF', 5),
    signInBackOffSeconds: seconds('SIGN_IN_BACKOFF_SECONDS', 30),
    signInMaxBackOffSeconds: seconds('SIGN_IN_MAX_BACKOFF_SECONDS', 900),
    signInAddressFailures: count('SIGN_IN_ADDRESS_FAILURES', 50),
    signInAddressWindowSeconds: seconds('SIGN_IN_ADDRESS_WINDOW_SECONDS', 300),
    memoryKeys: read('RATE_LIMIT_MEMORY_KEYS', 100_000, (raw) => integerIn(raw, 100, 100_000_000), 'an integer from 100 to 100000000'),
    redisUrl: read<string | undefined>('REDIS_URL', undefined, parseRedisUrl, 'a redis:// or rediss:// URL'),
    redisTimeoutMs: read('REDIS_TIMEOUT_MS', 100, (raw) => integerIn(raw, 1, 10_000), 'an integer from 1 to 10000'),
  };
  const trustProxy = read<TrustProxy | undefined>('TRUST_PROXY', undefined, parseTrustProxy, 'a hop count, or comma-separated IP addresses or CIDR ranges');
  return { rateLimits, trustProxy };
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function parseTrustProxy(raw: string): TrustProxy | undefined {
  if (/^\d+$/.test(raw)) return integerIn(raw, 1, 100);
  const entries = raw.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

function parseRedisUrl(raw: string): string | undefined {
  try {
    return ['redis:', 'rediss:'].includes(new URL(raw).protocol) ? raw : undefined;
  } catch {
    return undefined;
  }
}

function integerIn(raw: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

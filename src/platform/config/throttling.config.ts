import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { Transform } from 'class-transformer';
import { IntegerIn, Satisfies, hasProtocol, validateEnvironment, type Env } from './environment';

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
  /** Lifetime of a device cookie (docs/throttling.md); 0 = no device cookies. */
  readonly deviceCookieDays: number;
  /** Bound on concurrent password hashing (docs/throttling.md); concurrency 0 = unbounded. */
  readonly passwordCheckConcurrency: number;
  readonly passwordCheckQueueLength: number;
  readonly passwordCheckQueueTimeoutMs: number;
  /** Ordinary counters kept in memory (least recently used go first); blocking keys are kept apart. */
  readonly memoryKeys: number;
  readonly redisUrl: string | undefined;
  readonly redisTimeoutMs: number;
}

/** A hop count, or addresses / CIDR ranges / proxy-addr range names. */
export type TrustProxy = number | readonly string[];

const WholeNumber = () => IntegerIn(0, 1_000_000_000, 'a whole number');
const Seconds = () => IntegerIn(1, 86_400);

/** The throttling variables (docs/throttling.md, docs/configuration.md#throttling), each optional. */
export class ThrottlingEnvironment {
  @Seconds() RATE_LIMIT_WINDOW_SECONDS?: number;
  @WholeNumber() RATE_LIMIT_PER_CLIENT?: number;
  @WholeNumber() RATE_LIMIT_PER_ADDRESS?: number;
  @WholeNumber() RATE_LIMIT_AUTH_FAILURES?: number;
  @WholeNumber() RATE_LIMIT_ANONYMOUS_AUTH_FAILURES?: number;
  @WholeNumber() SIGN_IN_FAILURES_BEFORE_BACKOFF?: number;
  @Seconds() SIGN_IN_BACKOFF_SECONDS?: number;
  @Seconds() SIGN_IN_MAX_BACKOFF_SECONDS?: number;
  @WholeNumber() SIGN_IN_ADDRESS_FAILURES?: number;
  @Seconds() SIGN_IN_ADDRESS_WINDOW_SECONDS?: number;
  @IntegerIn(0, 3650) SIGN_IN_DEVICE_COOKIE_DAYS?: number;
  @IntegerIn(0, 1024) PASSWORD_HASHING_CONCURRENCY?: number;
  @IntegerIn(0, 100_000) PASSWORD_HASHING_QUEUE?: number;
  @IntegerIn(1, 60_000) PASSWORD_HASHING_QUEUE_TIMEOUT_MS?: number;
  @IntegerIn(100, 100_000_000) RATE_LIMIT_MEMORY_KEYS?: number;
  @Satisfies(hasProtocol('redis:', 'rediss:'), 'a redis:// or rediss:// URL') REDIS_URL?: string;
  @IntegerIn(1, 10_000) REDIS_TIMEOUT_MS?: number;
  @Transform(({ value }: { value: string }) => (/^\d+$/.test(value) ? Number(value) : value.split(',').map((entry) => entry.trim())))
  @Satisfies(isTrustProxy, 'a hop count, or comma-separated IP addresses or CIDR ranges')
  TRUST_PROXY?: TrustProxy;
}

/** The throttling settings of `AppConfig` (docs/throttling.md), read by `loadConfig`. */
export function readThrottlingConfig(env: Env, problems: string[]): { rateLimits: RateLimitConfig; trustProxy: TrustProxy | undefined } {
  const { variables: v, problems: refused } = validateEnvironment(ThrottlingEnvironment, env);
  problems.push(...refused);
  const rateLimits: RateLimitConfig = {
    windowSeconds: v.RATE_LIMIT_WINDOW_SECONDS ?? 60,
    perClient: v.RATE_LIMIT_PER_CLIENT ?? 0,
    perAddress: v.RATE_LIMIT_PER_ADDRESS ?? 0,
    authFailures: v.RATE_LIMIT_AUTH_FAILURES ?? 20,
    anonymousAuthFailures: v.RATE_LIMIT_ANONYMOUS_AUTH_FAILURES ?? 100,
    signInFailures: v.SIGN_IN_FAILURES_BEFORE_BACKOFF ?? 5,
    signInBackOffSeconds: v.SIGN_IN_BACKOFF_SECONDS ?? 30,
    signInMaxBackOffSeconds: v.SIGN_IN_MAX_BACKOFF_SECONDS ?? 900,
    signInAddressFailures: v.SIGN_IN_ADDRESS_FAILURES ?? 50,
    signInAddressWindowSeconds: v.SIGN_IN_ADDRESS_WINDOW_SECONDS ?? 300,
    deviceCookieDays: v.SIGN_IN_DEVICE_COOKIE_DAYS ?? 90,
    passwordCheckConcurrency: v.PASSWORD_HASHING_CONCURRENCY ?? defaultHashingConcurrency(),
    passwordCheckQueueLength: v.PASSWORD_HASHING_QUEUE ?? 32,
    passwordCheckQueueTimeoutMs: v.PASSWORD_HASHING_QUEUE_TIMEOUT_MS ?? 2000,
    memoryKeys: v.RATE_LIMIT_MEMORY_KEYS ?? 100_000,
    redisUrl: v.REDIS_URL,
    redisTimeoutMs: v.REDIS_TIMEOUT_MS ?? 100,
  };
  return { rateLimits, trustProxy: v.TRUST_PROXY };
}

/** One core left for the event loop and the database driver, at most libuv's 4 threads (scrypt runs there). */
function defaultHashingConcurrency(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isTrustProxy(value: unknown): boolean {
  if (typeof value === 'number') return value >= 1 && value <= 100;
  return Array.isArray(value) && value.every(isProxyAddress);
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

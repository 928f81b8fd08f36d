import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { IntegerIn, Satisfies, hasProtocol, mustBe } from './environment';

export const SIGNING_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const TRUST_DOMAIN = mustBe('a URI (e.g. https://example.com or spiffe://example.com), at most 200 characters');
const TOLLGATE_EXTENSIONS = mustBe('comma-separated paths of JavaScript modules, at most 4000 characters');

/**
 * The service's variables (docs/configuration.md: service, database, signing algorithm, browser
 * sign-in), each optional; `loadConfig` applies the defaults. Keys and throttling have their own classes.
 */
export class AppEnvironment {
  @IntegerIn(0, 65535) PORT?: number;
  @IsString(mustBe('a host name or address')) HOST?: string;
  @Satisfies(isIssuer, 'an absolute http(s) URL without query or fragment') ISSUER?: string;
  @Satisfies(hasProtocol('postgres:', 'postgresql:'), 'a postgres:// or postgresql:// URL') DATABASE_URL?: string;
  @IsString(mustBe('a directory path')) DATA_DIR?: string;
  @IsIn(['true', 'false'], mustBe('"true" or "false"')) SEED_DEMO?: 'true' | 'false';
  @IsIn(LOG_LEVELS, mustBe(`one of ${LOG_LEVELS.join(', ')}`)) LOG_LEVEL?: LogLevel;
  @IntegerIn(1, 200) DATABASE_POOL_SIZE?: number;
  @IntegerIn(0, 3600) CACHE_TTL_SECONDS?: number;
  @IntegerIn(0, 1_000_000) VERIFIED_TOKEN_CACHE_SIZE?: number;
  @IntegerIn(0, 3600) VERIFIED_TOKEN_CACHE_SECONDS?: number;
  @IsIn(SIGNING_ALGORITHMS, mustBe(`one of ${SIGNING_ALGORITHMS.join(', ')}`)) SIGNING_ALG?: SigningAlgorithm;
  @IntegerIn(0, 300) SHUTDOWN_DRAIN_SECONDS?: number;
  @IntegerIn(1, 100_000) MAX_CONCURRENT_REQUESTS?: number;
  @IntegerIn(0, 65535) METRICS_PORT?: number;
  // draft-ietf-oauth-transaction-tokens: a trust domain names itself with a URI, the `aud` of its tokens.
  @MaxLength(200, TRUST_DOMAIN) @Matches(/^[a-z][a-z0-9+.-]*:[^\s]+$/i, TRUST_DOMAIN) TRUST_DOMAIN?: string;
  @IntegerIn(1, 300) TXN_TOKEN_LIFETIME_SECONDS?: number;
  @IsIn(['true', 'false'], mustBe('"true" or "false"')) DPOP_REQUIRE_NONCE?: 'true' | 'false';
  @IntegerIn(1, 3600) JWKS_REFETCH_SECONDS?: number;
  @IntegerIn(1, 120) GRANT_TIMEOUT_SECONDS?: number;
  @IntegerIn(60, 90 * 86_400) SESSION_LIFETIME_SECONDS?: number;
  @IntegerIn(30, 86_400) ID_TOKEN_LIFETIME_SECONDS?: number;
  @IsString(mustBe('a directory path')) INTERACTION_VIEWS_DIR?: string;
  @MaxLength(4000, TOLLGATE_EXTENSIONS) @Matches(/^\s*[^,\s]+(\s*,\s*[^,\s]+)*\s*$/, TOLLGATE_EXTENSIONS) TOLLGATE_EXTENSIONS?: string;
}

function isIssuer(value: unknown): boolean {
  try {
    const url = new URL(String(value));
    // RFC 8414 §2: no query or fragment component, not even an empty one (URL reports those as '').
    return ['http:', 'https:'].includes(url.protocol) && !/[?#]/.test(String(value));
  } catch {
    return false;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { compactVerify, errors, type JWTVerifyGetKey } from 'jose';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { isCanonicalCompactJws } from '../../protocol/compact-jws';
import { parseJsonObject } from '../../protocol/json-object';
import { OAuthError } from '../../protocol/oauth-error';
import { FOREIGN_JWT_ALGORITHMS } from './foreign-jwt.verifier';
import { JwkSetResolver } from './jwk-set.resolver';
import type { AuthorizationGrantIssuerPolicy } from './trusted-issuer';
import { TrustedIssuerStore } from './trusted-issuer.store';

const MAX_ASSERTION_LENGTH = 16 * 1024;

/** A trusted issuer with the role `authorization-grant` (docs/chaining.md#authorization-grant-issuers). */
export interface AuthorizationGrantIssuer extends AuthorizationGrantIssuerPolicy {
  /** The `iss` of its assertions. */
  readonly issuer: string;
}

/** A compact JWS whose signature verified: its protected header and its claims, each a JSON object. */
export interface VerifiedJws {
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * The authorization-grant issuers registered by migration (RFC 7523 JWT authorization grants and
 * ID-JAGs, docs/chaining.md), and the verification of their signatures with their keys — inline, or
 * from their `jwks_uri` through the guarded, cached fetcher of every trusted issuer (refetched on an
 * unknown `kid` at most once a minute). A token service for grants: it checks only the signature;
 * the claims are the grant's to judge.
 */
@Injectable()
export class AuthorizationGrantIssuers {
  /** This service's issuer identifier (`ISSUER`): the sole `aud` an assertion for it carries (rfc7523bis). */
  readonly audience: string;

  constructor(
    @Inject(TrustedIssuerStore) private readonly issuers: Pick<TrustedIssuerStore, 'find'>,
    @Inject(JwkSetResolver) private readonly keys: Pick<JwkSetResolver, 'forIssuer'>,
    @Inject(issuerConfig.KEY) config: ConfigType<typeof issuerConfig>,
  ) {
    this.audience = config.issuer;
  }

  /** The enabled authorization-grant issuer whose identifier is `issuer`, or undefined. */
  async find(issuer: string): Promise<AuthorizationGrantIssuer | undefined> {
    const found = await this.issuers.find(issuer, 'authorization-grant');
    return found?.authorizationGrant ? { issuer: found.issuer, ...found.authorizationGrant } : undefined;
  }

  /**
   * Verifies `jws` (a canonical compact JWS of at most 16 KiB, an asymmetric `alg` — never `none`,
   * never HMAC) with the keys of `issuer`. Throws `OAuthError` `invalid_grant` naming what failed.
   */
  async verifySignature(jws: string, issuer: AuthorizationGrantIssuer): Promise<VerifiedJws> {
    if (jws.length === 0 || jws.length > MAX_ASSERTION_LENGTH) throw OAuthError.invalidGrant('the assertion is empty or longer than 16 KiB');
    if (!isCanonicalCompactJws(jws)) throw OAuthError.invalidGrant('the assertion is not a compact JWS in canonical base64url');
    const found = await this.issuers.find(issuer.issuer, 'authorization-grant');
    if (!found) throw OAuthError.invalidGrant(`${issuer.issuer} is not an authorization-grant issuer`);
    const keys: JWTVerifyGetKey = this.keys.forIssuer(found);
    let verified: Awaited<ReturnType<typeof compactVerify>>;
    try {
      verified = await compactVerify(jws, keys, { algorithms: [...FOREIGN_JWT_ALGORITHMS] });
    } catch (error) {
      throw OAuthError.invalidGrant(`the assertion's signature does not verify with the keys of ${issuer.issuer}: ${describe(error)}`);
    }
    const claims = parseJsonObject(new TextDecoder().decode(verified.payload));
    if (!claims) throw OAuthError.invalidGrant('the assertion payload is not a JSON object with unique member names');
    return { header: verified.protectedHeader as Record<string, unknown>, claims };
  }
}

function describe(error: unknown): string {
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the algorithm is not allowed';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return 'no registered key matches';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature is wrong';
  if (error instanceof errors.JWKSTimeout) return 'the key set could not be fetched in time';
  return 'the JWS is malformed or its keys cannot be read';
}

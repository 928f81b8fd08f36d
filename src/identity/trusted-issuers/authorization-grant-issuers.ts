import { Inject, Injectable } from '@nestjs/common';
import { decodeProtectedHeader, errors, type JWTVerifyGetKey, type ProtectedHeaderParameters } from 'jose';
import { KeyObject, webcrypto } from 'node:crypto';
import { hasValidSignature } from '../../platform/jws/jws-signature';
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
    const header = readHeader(jws);
    const { alg } = header;
    const unverified = (reason: string) => OAuthError.invalidGrant(`the assertion's signature does not verify with the keys of ${issuer.issuer}: ${reason}`);
    if (typeof alg !== 'string' || !(FOREIGN_JWT_ALGORITHMS as readonly string[]).includes(alg)) throw unverified('the algorithm is not allowed');
    const [, payload, signature] = jws.split('.');
    let key: KeyObject;
    try {
      key = keyObjectOf(await keys({ ...header, alg }, { payload, signature }));
    } catch (error) {
      throw unverified(describe(error));
    }
    if (!(await hasValidSignature(jws, alg, key))) throw unverified('the signature is wrong');
    const claims = parseJsonObject(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!claims) throw OAuthError.invalidGrant('the assertion payload is not a JSON object with unique member names');
    return { header: header as Record<string, unknown>, claims };
  }
}

/** The protected header, refusing what jose's verification refused: no JSON object, or an extension marked critical. */
function readHeader(jws: string): ProtectedHeaderParameters {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw OAuthError.invalidGrant('the assertion header is not a JSON object');
  }
  // RFC 7515 §4.1.11: no extension is understood here, so none may be critical (b64 included).
  if (header.crit !== undefined || header.b64 !== undefined) throw OAuthError.invalidGrant('the assertion header has an extension');
  return header;
}

/** jose's key sets give CryptoKeys; jsonwebtoken verifies with a KeyObject (kept per CryptoKey). */
const keyObjects = new WeakMap<object, KeyObject>();
function keyObjectOf(key: unknown): KeyObject {
  if (key instanceof KeyObject) return key;
  if (typeof key !== 'object' || key === null) throw new TypeError('the key set gave no public key');
  let keyObject = keyObjects.get(key);
  // KeyObject.from throws for anything but a CryptoKey.
  if (!keyObject) keyObjects.set(key, (keyObject = KeyObject.from(key as webcrypto.CryptoKey)));
  return keyObject;
}

function describe(error: unknown): string {
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the algorithm is not allowed';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return 'no registered key matches';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature is wrong';
  if (error instanceof errors.JWKSTimeout) return 'the key set could not be fetched in time';
  return 'the JWS is malformed or its keys cannot be read';
}

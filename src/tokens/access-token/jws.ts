import type { JwtService } from '@nestjs/jwt';
import { jwtVerify, SignJWT } from 'jose';
import type { PublishedKey, SigningKey } from '../keys/signing-key';
import { CLOCK_SKEW_SECONDS } from '../../protocol/clock-skew';
import { isCanonicalCompactJws } from '../../protocol/compact-jws';

/**
 * Compact JWS for our tokens: @nestjs/jwt (jsonwebtoken) signs and verifies RS256, PS256 and
 * ES256; EdDSA, which jsonwebtoken does not implement, goes through `jose`. `typ` tells the kinds
 * apart: `at+jwt` for access tokens (RFC 9068 §2.1), `JWT` for ID tokens, and transaction tokens their own.
 */
export async function signJws(jwt: JwtService, claims: Record<string, unknown>, key: SigningKey, typ = 'at+jwt'): Promise<string> {
  const header = { alg: key.algorithm, typ, kid: key.kid };
  if (key.algorithm === 'EdDSA') return new SignJWT(claims).setProtectedHeader(header).sign(key.privateKey);
  return jwt.sign(claims, { privateKey: key.privateKey, algorithm: key.algorithm, keyid: key.kid, header });
}

/**
 * The verified payload; throws when a part is not canonical base64url (one spelling per token), or
 * the signature, `iss`, `exp` or `nbf` (60 s skew) fails.
 * `ignoreExpiration` is for ID tokens presented as logout hints (OpenID Connect RP-Initiated Logout 1.0 §2).
 */
export async function verifyJws(
  jwt: JwtService,
  token: string,
  key: PublishedKey,
  issuer: string,
  options: { ignoreExpiration?: boolean } = {},
): Promise<unknown> {
  // Both libraries decode leniently: a signature respelled in its spare bits would still verify.
  if (!isCanonicalCompactJws(token)) throw new Error('the token is not a compact JWS in canonical base64url');
  if (key.algorithm === 'EdDSA') {
    const currentDate = options.ignoreExpiration ? new Date(0) : undefined;
    return (await jwtVerify(token, key.publicKey, { algorithms: ['EdDSA'], issuer, clockTolerance: CLOCK_SKEW_SECONDS, currentDate })).payload;
  }
  return jwt.verify(token, {
    // A library type gap: @nestjs/jwt hands `publicKey` to jsonwebtoken's verify, which takes a
    // KeyObject, but types it string | Buffer. A PEM string would be parsed again on every call.
    publicKey: key.publicKey as unknown as Buffer,
    algorithms: [key.algorithm],
    issuer,
    clockTolerance: CLOCK_SKEW_SECONDS,
    ignoreExpiration: options.ignoreExpiration,
  });
}

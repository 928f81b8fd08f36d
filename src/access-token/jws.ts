import type { JwtService } from '@nestjs/jwt';
import { jwtVerify, SignJWT } from 'jose';
import type { PublishedKey, SigningKey } from '../keys/signing-key';
import { CLOCK_SKEW_SECONDS } from '../oauth/clock-skew';

/**
 * Compact JWS for access tokens (and transaction tokens, with their own `typ`): @nestjs/jwt (jsonwebtoken) signs and verifies RS256, PS256 and
 * ES256; EdDSA, which jsonwebtoken does not implement, goes through `jose`.
 */
export async function signJws(jwt: JwtService, claims: Record<string, unknown>, key: SigningKey, typ = 'at+jwt'): Promise<string> {
  const header = { alg: key.algorithm, typ, kid: key.kid };
  if (key.algorithm === 'EdDSA') return new SignJWT(claims).setProtectedHeader(header).sign(key.privateKey);
  // jsonwebtoken takes a KeyObject; @nestjs/jwt's typings only name string and Buffer.
  return jwt.sign(claims, { privateKey: key.privateKey as unknown as Buffer, algorithm: key.algorithm, keyid: key.kid, header });
}

/** The verified payload; throws when the signature, `iss`, `exp` or `nbf` (60 s skew) fails. */
export async function verifyJws(jwt: JwtService, token: string, key: PublishedKey, issuer: string): Promise<unknown> {
  if (key.algorithm === 'EdDSA') {
    return (await jwtVerify(token, key.publicKey, { algorithms: ['EdDSA'], issuer, clockTolerance: CLOCK_SKEW_SECONDS })).payload;
  }
  return jwt.verify(token, {
    publicKey: key.publicKey as unknown as Buffer,
    algorithms: [key.algorithm],
    issuer,
    clockTolerance: CLOCK_SKEW_SECONDS,
  });
}

import { JwtService } from '@nestjs/jwt';
import type { Algorithm } from 'jsonwebtoken';
import { compactVerify } from 'jose';
import type { KeyObject } from 'node:crypto';

const JWS = new JwtService();

/**
 * Whether the compact JWS carries a valid `alg` signature by `key`: @nestjs/jwt (jsonwebtoken)
 * checks RS, PS and ES signatures, `jose` the EdDSA ones jsonwebtoken does not implement, as for our
 * own tokens (tokens/access-token/jws.ts). The header's other members and the claims are the caller's.
 */
export async function hasValidSignature(jws: string, alg: string, key: KeyObject): Promise<boolean> {
  try {
    if (alg === 'EdDSA' || alg === 'Ed25519') await compactVerify(jws, key, { algorithms: [alg] });
    // A library type gap: jsonwebtoken's verify takes a KeyObject, which @nestjs/jwt types string | Buffer.
    else JWS.verify(jws, { publicKey: key as unknown as Buffer, algorithms: [alg as Algorithm], ignoreExpiration: true, ignoreNotBefore: true });
    return true;
  } catch {
    return false;
  }
}

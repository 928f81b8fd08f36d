import { generateKeyPairSync } from 'node:crypto';
import { weakKeyProblem } from './jwk-strength';

const rsaJwk = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' });

describe('weakKeyProblem', () => {
  it.each([512, 1024, 2047])('refuses an RSA key of %i bits', (bits) => {
    expect(weakKeyProblem(rsaJwk(bits))).toBe(`an RSA key must be at least 2048 bits (RFC 7518 §3.3), not ${bits}`);
  });

  it('refuses an RSA key without a modulus, or one of zeros', () => {
    expect(weakKeyProblem({ kty: 'RSA' })).toMatch(/not 0$/);
    expect(weakKeyProblem({ kty: 'RSA', n: Buffer.alloc(300).toString('base64url') })).toMatch(/not 0$/);
  });

  it('counts bits, not octets: a 2048-bit modulus with a leading zero octet is still 2048 bits', () => {
    const { n } = rsaJwk(2048) as { n: string };
    expect(weakKeyProblem({ kty: 'RSA', n: Buffer.concat([Buffer.alloc(1), Buffer.from(n, 'base64url')]).toString('base64url') })).toBeUndefined();
  });

  it('accepts RSA keys of 2048 bits and more, and keys of other types', () => {
    expect(weakKeyProblem(rsaJwk(2048))).toBeUndefined();
    expect(weakKeyProblem(rsaJwk(3072))).toBeUndefined();
    expect(weakKeyProblem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }))).toBeUndefined();
    expect(weakKeyProblem(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }))).toBeUndefined();
  });
});

import { createHmac } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { ForeignJwtVerifier } from './foreign-jwt.verifier';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('ForeignJwtVerifier.verify', () => {
  const verifier = new ForeignJwtVerifier();
  let privateKey: PrivateKey;
  let jwk: JWK;
  let keys: ReturnType<typeof createLocalJWKSet>;
  const now = () => Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT({ iss: 'https://issuer.example', sub: 'svc', aud: 'tollgate', exp: now() + 60, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...header } as { alg: string })
      .sign(privateKey);
  const expect_ = { issuer: 'https://issuer.example', audience: ['tollgate', 'https://tollgate/connect/token'] };

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1' };
    keys = createLocalJWKSet({ keys: [jwk] });
  });

  it('refuses alg none', async () => {
    const token = `${b64({ alg: 'none', kid: 'k1' })}.${b64({ iss: 'https://issuer.example', aud: 'tollgate', exp: now() + 60 })}.`;
    await expect(verifier.verify(token, keys, expect_)).rejects.toThrow('the algorithm is not allowed');
  });

  it('refuses HS256 signed with the public key as the HMAC secret', async () => {
    const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64({ iss: 'https://issuer.example', aud: 'tollgate', exp: now() + 60 })}`;
    const signature = createHmac('sha256', JSON.stringify(jwk)).update(input).digest('base64url');
    await expect(verifier.verify(`${input}.${signature}`, keys, expect_)).rejects.toThrow('the algorithm is not allowed');
  });

  it('refuses a signature respelled in its spare bits, and padding (RFC 7515 §2)', async () => {
    const token = await sign({});
    // ES256 signatures are 86 characters: the last (A, Q, g or w) has 4 spare bits, which decoders ignore.
    const respelled = token.slice(0, -1) + String.fromCharCode(token.charCodeAt(token.length - 1) + 1);
    await expect(verifier.verify(token, keys, expect_)).resolves.toMatchObject({ sub: 'svc' });
    await expect(verifier.verify(respelled, keys, expect_)).rejects.toThrow('the JWT is not a compact JWS in canonical base64url');
    await expect(verifier.verify(`${token}==`, keys, expect_)).rejects.toThrow('the JWT is not a compact JWS in canonical base64url');
  });

  it('refuses a wrong signature key, audience, issuer, an expired token and one without exp', async () => {
    const other = await generateKeyPair('ES256');
    const forged = await new SignJWT({ iss: 'https://issuer.example', aud: 'tollgate', exp: now() + 60 })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign(other.privateKey);
    await expect(verifier.verify(forged, keys, expect_)).rejects.toThrow('the signature does not verify');
    await expect(verifier.verify(await sign({ aud: 'someone-else' }), keys, expect_)).rejects.toThrow('claim aud is not acceptable');
    await expect(verifier.verify(await sign({ iss: 'https://evil.example' }), keys, expect_)).rejects.toThrow('claim iss is not acceptable');
    await expect(verifier.verify(await sign({ exp: now() - 61 }), keys, expect_)).rejects.toThrow('the JWT has expired');
    await expect(verifier.verify(await sign({ exp: undefined }), keys, expect_)).rejects.toThrow('claim exp is not acceptable');
  });

  it('refuses an iat more than the clock skew in the future', async () => {
    await expect(verifier.verify(await sign({ iat: now() + 120 }), keys, expect_)).rejects.toThrow('"iat" is in the future');
  });

  it('refuses an unknown kid, garbage and an oversized token', async () => {
    await expect(verifier.verify(await sign({}, { kid: 'k9' }), keys, expect_)).rejects.toThrow('no registered key matches the JWT');
    await expect(verifier.verify('not.a.jwt', keys, expect_)).rejects.toThrow('the JWT is not a compact JWS in canonical base64url');
    await expect(verifier.verify('e30.e30.QQ', keys, expect_)).rejects.toThrow('the JWT is malformed or cannot be verified');
    await expect(verifier.verify('x'.repeat(16 * 1024 + 1), keys, expect_)).rejects.toThrow('the JWT is empty or too long');
  });

  it('accepts a token whose aud contains one of the expected audiences, within the skew', async () => {
    const payload = await verifier.verify(await sign({ aud: ['other', 'https://tollgate/connect/token'], iat: now() + 30, exp: now() - 30 }), keys, expect_);
    expect(payload.sub).toBe('svc');
  });
});

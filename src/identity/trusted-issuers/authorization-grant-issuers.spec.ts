import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createLocalJWKSet } from 'jose';
import { OAuthError } from '../../protocol/oauth-error';
import { AuthorizationGrantIssuers, type AuthorizationGrantIssuer } from './authorization-grant-issuers';
import type { TrustedIssuer } from './trusted-issuer';

const ISSUER = 'https://idp.example';
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jws(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject, algorithm: string | null): string {
  const input = `${encode(header)}.${encode(claims)}`;
  const options = key.asymmetricKeyType === 'ec' ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
  return `${input}.${sign(algorithm, Buffer.from(input), options).toString('base64url')}`;
}

describe('AuthorizationGrantIssuers.verifySignature', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ed = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keys = createLocalJWKSet({
    keys: [
      { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec-1', alg: 'ES256' },
      { ...ed.publicKey.export({ format: 'jwk' }), kid: 'ed-1', alg: 'EdDSA' },
    ],
  });
  const found = { issuer: ISSUER } as TrustedIssuer;
  const issuers = new AuthorizationGrantIssuers({ find: async () => found }, { forIssuer: () => keys }, { issuer: 'https://as.example' } as never);
  const issuer = { issuer: ISSUER } as AuthorizationGrantIssuer;
  const claims = { iss: ISSUER, sub: 'alice' };

  const refusal = (assertion: string) =>
    issuers.verifySignature(assertion, issuer).then(
      () => 'verified',
      (error: OAuthError) => `${error.code}: ${error.description}`,
    );

  it('verifies ES256 (jsonwebtoken) and EdDSA (jose) signatures by the key of their kid, and gives the header and claims', async () => {
    await expect(issuers.verifySignature(jws({ alg: 'ES256', kid: 'ec-1', typ: 'JWT' }, claims, ec.privateKey, 'sha256'), issuer)).resolves.toEqual({
      header: { alg: 'ES256', kid: 'ec-1', typ: 'JWT' },
      claims,
    });
    await expect(issuers.verifySignature(jws({ alg: 'EdDSA', kid: 'ed-1' }, claims, ed.privateKey, null), issuer)).resolves.toMatchObject({ claims });
  });

  it('refuses a wrong signature, an unknown kid, none, HMAC and a critical extension', async () => {
    expect(await refusal(jws({ alg: 'ES256', kid: 'ec-1' }, claims, other.privateKey, 'sha256'))).toMatch(/invalid_grant: .*the signature is wrong/);
    expect(await refusal(jws({ alg: 'ES256', kid: 'ec-9' }, claims, ec.privateKey, 'sha256'))).toMatch(/invalid_grant: .*no registered key matches/);
    expect(await refusal(`${encode({ alg: 'none' })}.${encode(claims)}.`)).toMatch(/invalid_grant/);
    const hs = `${encode({ alg: 'HS256', kid: 'ec-1' })}.${encode(claims)}`;
    expect(await refusal(`${hs}.${createHmac('sha256', 'secret').update(hs).digest('base64url')}`)).toMatch(/invalid_grant: .*the algorithm is not allowed/);
    expect(await refusal(jws({ alg: 'ES256', kid: 'ec-1', crit: ['exp'] }, claims, ec.privateKey, 'sha256'))).toBe(
      'invalid_grant: the assertion header has an extension',
    );
  });

  it('refuses a payload that is not a JSON object with unique members', async () => {
    const header = encode({ alg: 'ES256', kid: 'ec-1' });
    const payload = Buffer.from('{"sub":"a","sub":"b"}').toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    expect(await refusal(`${header}.${payload}.${signature}`)).toBe('invalid_grant: the assertion payload is not a JSON object with unique member names');
  });
});

import { JwtService } from '@nestjs/jwt';
import { generateKeyPairSync, sign } from 'node:crypto';
import type { SigningKey } from '../keys/signing-key';
import type { SigningKeyStore } from '../keys/signing-key.store';
import { OwnTokenVerifier, type OwnTokenKind } from './own-token.verifier';

const ISSUER = 'https://tollgate.example';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const createdAt = new Date();
const key: SigningKey = {
  kid: 'kid-1',
  algorithm: 'RS256',
  privateKey,
  publicKey,
  publicJwk: publicKey.export({ format: 'jwk' }),
  createdAt,
  activatesAt: createdAt,
};

const ACCESS: OwnTokenKind = { types: new Set(['at+jwt']), wrongType: 'not an access token' };
const HINT: OwnTokenKind = { types: new Set(['jwt']), wrongType: 'not an ID token', ignoreExpiration: true };

function verifier(reloads: string[] = []): OwnTokenVerifier {
  const keys: Pick<SigningKeyStore, 'verificationKey' | 'verificationKeyAfterReload'> = {
    verificationKey: (kid) => (kid === key.kid ? key : undefined),
    verificationKeyAfterReload: async (kid) => void reloads.push(kid),
  };
  return new OwnTokenVerifier(new JwtService({}), keys, { issuer: ISSUER });
}

const now = () => Math.floor(Date.now() / 1000);
const claims = (overrides: Record<string, unknown> = {}) => ({ iss: ISSUER, sub: '1', iat: now(), exp: now() + 60, ...overrides });

function signed(payload: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const input = [{ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header }, payload]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.');
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

const refused = (description: string) => expect.objectContaining({ code: 'invalid_token', description });

describe('OwnTokenVerifier.verify', () => {
  it.each([
    ['an empty token', '', 'the token is empty or too long'],
    ['a token over 16 KiB', 'a'.repeat(16 * 1024 + 1), 'the token is empty or too long'],
    ['two segments', 'a.b', 'the token is not a compact JWS'],
    [
      'a header that is no JSON object',
      `${Buffer.from('[1]').toString('base64url')}.e30.sig`,
      'the token header is not a JSON object with unique member names',
    ],
  ])('refuses %s', async (_, token, description) => {
    await expect(verifier().verify(token, ACCESS)).rejects.toEqual(refused(description));
  });

  it('refuses a token of another kind with that kind’s description, whichever kind is expected', async () => {
    await expect(verifier().verify(signed(claims(), { typ: 'JWT' }), ACCESS)).rejects.toEqual(refused('not an access token'));
    await expect(verifier().verify(signed(claims()), HINT)).rejects.toEqual(refused('not an ID token'));
  });

  it.each(['jwk', 'jku', 'x5u', 'x5c', 'crit'])('refuses a %s header for every kind of token', async (name) => {
    const description = 'the token header has parameters that are not accepted';
    await expect(verifier().verify(signed(claims(), { [name]: 'x' }), ACCESS)).rejects.toEqual(refused(description));
    await expect(verifier().verify(signed(claims(), { typ: 'JWT', [name]: 'x' }), HINT)).rejects.toEqual(refused(description));
  });

  it('refuses a repeated claim', async () => {
    const [header, , signature] = signed(claims()).split('.');
    const payload = Buffer.from(`{"iss":"${ISSUER}","sub":"1","sub":"2"}`).toString('base64url');
    await expect(verifier().verify(`${header}.${payload}.${signature}`, ACCESS)).rejects.toEqual(
      refused('the token payload is not a JSON object with unique member names'),
    );
  });

  it("refuses an alg other than the key's", async () => {
    await expect(verifier().verify(signed(claims(), { alg: 'PS256' }), ACCESS)).rejects.toEqual(refused('the token algorithm is not accepted'));
  });

  it('reloads the keys for an unknown kid only when the token claims our issuer', async () => {
    const reloads: string[] = [];
    await expect(verifier(reloads).verify(signed(claims(), { kid: 'new-kid' }), ACCESS)).rejects.toEqual(
      refused('the token was not signed with a published key'),
    );
    await expect(verifier(reloads).verify(signed(claims({ iss: 'https://other' }), { kid: 'other-kid' }), ACCESS)).rejects.toEqual(
      refused('the token was not signed with a published key'),
    );
    expect(reloads).toEqual(['new-kid']);
  });

  it('refuses a signature respelled in its spare bits (canonical base64url): the same bytes, another spelling', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = signed(claims());
    // An RS256 signature is 256 bytes: 342 characters, the last carrying 4 spare bits, all zero.
    const respelled = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1) ?? '') + 1];
    expect(Buffer.from(respelled.split('.')[2], 'base64url')).toEqual(Buffer.from(token.split('.')[2], 'base64url'));
    await expect(verifier().verify(respelled, ACCESS)).rejects.toEqual(refused('the token signature, issuer or lifetime is invalid'));
  });

  it('refuses an expired token, unless the kind ignores expiry (logout hints)', async () => {
    const expired = claims({ iat: now() - 600, exp: now() - 300 });
    await expect(verifier().verify(signed(expired), ACCESS)).rejects.toEqual(refused('the token signature, issuer or lifetime is invalid'));
    await expect(verifier().verify(signed(expired, { typ: 'JWT' }), HINT)).resolves.toMatchObject({ claims: expired, key });
  });

  it('returns the claims and the key of a valid token', async () => {
    const valid = claims();
    await expect(verifier().verify(signed(valid, { typ: 'AT+JWT' }), ACCESS)).resolves.toEqual({ claims: valid, key });
  });
});

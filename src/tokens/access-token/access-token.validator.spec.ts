import { JwtService } from '@nestjs/jwt';
import { createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { forgedTokenCorpus, nestedActor, userTokenClaims } from '../../../test/support/forged-token-corpus';
import type { SigningKey } from '../keys/signing-key';
import type { SigningKeyStore } from '../keys/signing-key.store';
import type { AccessTokenDenyList } from './access-token-deny-list';
import { AccessTokenValidator } from './access-token.validator';
import { OwnTokenVerifier } from './own-token.verifier';

const ISSUER = 'https://tollgate.example';

/** A published RSA key and its private half, as the key store holds them. */
function signingKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const createdAt = new Date();
  return { kid, algorithm: 'RS256', privateKey, publicKey, publicJwk: publicKey.export({ format: 'jwk' }), createdAt, activatesAt: createdAt };
}

const key = signingKey('kid-1');
const lateKey = signingKey('kid-2');

/** A SigningKeyStore that publishes one real key; a deny list holding the given jti values. */
function validator(revoked: readonly string[] = [], published: ReadonlySet<string> = new Set([key.kid]), reloads: string[] = []): AccessTokenValidator {
  const keys: Pick<SigningKeyStore, 'verificationKey' | 'verificationKeyAfterReload'> = {
    verificationKey: (kid: string) => (published.has(kid) && kid === key.kid ? key : undefined),
    // A key created by another instance after this one last loaded: found by the reload.
    verificationKeyAfterReload: async (kid: string) => (reloads.push(kid), kid === lateKey.kid ? lateKey : undefined),
  };
  const denyList: Pick<AccessTokenDenyList, 'isRevoked'> = { isRevoked: (jwtId: string) => revoked.includes(jwtId) };
  return new AccessTokenValidator(new OwnTokenVerifier(new JwtService({}), keys, { issuer: ISSUER }), keys, { maxEntries: 100, maxAgeSeconds: 60 }, denyList);
}

function signed(claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const input = [{ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.');
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

const invalidToken = expect.objectContaining({ code: 'invalid_token', status: 401 });
const now = () => Math.floor(Date.now() / 1000);

describe('AccessTokenValidator.validate', () => {
  const corpus = forgedTokenCorpus({ key, issuer: ISSUER, claims: userTokenClaims(ISSUER) });

  describe('refuses every forged token of the corpus as invalid_token', () => {
    it.each(corpus.forgeries.map(({ name, token }) => [name, token]))('%s', async (_, token) => {
      await expect(validator().validate(token)).rejects.toThrow(invalidToken);
    });
  });

  it('refuses an empty token', async () => {
    await expect(validator().validate('')).rejects.toThrow(invalidToken);
  });

  it('refuses a revoked token', async () => {
    const claims = userTokenClaims(ISSUER);
    await expect(validator([claims.jti as string]).validate(signed(claims))).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_token', description: 'the token has been revoked' }),
    );
  });

  it('refuses a token signed by a key that is no longer published', async () => {
    const retired = signingKey('kid-retired');
    const input = `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: retired.kid })).toString('base64url')}.${Buffer.from(JSON.stringify(userTokenClaims(ISSUER))).toString('base64url')}`;
    await expect(validator().validate(`${input}.${sign('sha256', Buffer.from(input), retired.privateKey).toString('base64url')}`)).rejects.toThrow(
      invalidToken,
    );
  });

  it('names a repeated claim as the reason', async () => {
    const duplicated = corpus.forgeries.find(({ name }) => name === 'two sub claims')?.token ?? '';
    await expect(validator().validate(duplicated)).rejects.toThrow(
      expect.objectContaining({ description: 'the token payload is not a JSON object with unique member names' }),
    );
  });

  it('names a repeated header parameter as the reason', async () => {
    const duplicated = corpus.forgeries.find(({ name }) => name === 'two typ header parameters')?.token ?? '';
    await expect(validator().validate(duplicated)).rejects.toThrow(
      expect.objectContaining({ description: 'the token header is not a JSON object with unique member names' }),
    );
  });

  it('accepts the corpus control token, from which every forgery differs', async () => {
    const claims = userTokenClaims(ISSUER);
    const control = forgedTokenCorpus({ key, issuer: ISSUER, claims }).control;
    await expect(validator().validate(control)).resolves.toEqual({
      jwtId: claims.jti,
      subject: '1',
      clientId: 'frontend',
      scopes: ['openid', 'profile', 'api1'],
      audiences: ['api1'],
      issuedAt: claims.iat,
      expiresAt: claims.exp,
      authTime: claims.auth_time,
      authenticationMethods: ['pwd'],
      actor: undefined,
    });
  });

  it('accepts an act chain exactly 8 levels deep', async () => {
    const validated = await validator().validate(signed(userTokenClaims(ISSUER, { act: nestedActor(8) })));
    expect(validated.actor).toEqual(nestedActor(8));
  });

  it('accepts typ "application/at+jwt" in any case (RFC 9068 §2.1, RFC 7515 §4.1.9)', async () => {
    await expect(validator().validate(signed(userTokenClaims(ISSUER), { typ: 'Application/AT+JWT' }))).resolves.toMatchObject({ subject: '1' });
  });

  it('accepts a token that expired 30 s ago, within the 60 s clock skew', async () => {
    const issued = now() - 600;
    await expect(validator().validate(signed(userTokenClaims(ISSUER, { iat: issued, nbf: issued, exp: now() - 30 })))).resolves.toMatchObject({ subject: '1' });
  });

  it('accepts a token whose nbf is 30 s ahead, within the 60 s clock skew', async () => {
    await expect(validator().validate(signed(userTokenClaims(ISSUER, { nbf: now() + 30 })))).resolves.toMatchObject({ subject: '1' });
  });

  it('reads a token without auth_time and amr as one for the client alone, whatever its sub (RFC 9068 §2.2)', async () => {
    const { auth_time: _authTime, amr: _amr, ...clientClaims } = userTokenClaims(ISSUER, { sub: 'm2m', client_id: 'm2m' });
    const validated = await validator().validate(signed(clientClaims));
    expect(validated.subject).toBeUndefined();
    expect(validated.clientId).toBe('m2m');
  });

  it('accepts a token issued 30 s in the future, within the 60 s clock skew, and one living a year', async () => {
    await expect(validator().validate(signed(userTokenClaims(ISSUER, { iat: now() + 30 })))).resolves.toMatchObject({ subject: '1' });
    await expect(validator().validate(signed(userTokenClaims(ISSUER, { iat: now(), exp: now() + 31_536_000 })))).resolves.toMatchObject({ subject: '1' });
  });

  it.each([
    ['exp in the year 5000', { exp: 95_617_584_000 }],
    ['a lifetime over a year', { iat: now() - 10, exp: now() + 31_536_000 }],
    ['iat 5 minutes ahead', { iat: now() + 300, exp: now() + 900 }],
    ['auth_time and no sub', { sub: undefined }],
  ])('refuses a token with %s', async (_, overrides) => {
    await expect(validator().validate(signed(userTokenClaims(ISSUER, overrides)))).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('reloads the published keys for an unknown kid of a token that claims our issuer, and accepts it', async () => {
    const reloads: string[] = [];
    const input = [{ alg: 'RS256', typ: 'at+jwt', kid: lateKey.kid }, userTokenClaims(ISSUER)]
      .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
      .join('.');
    const token = `${input}.${sign('sha256', Buffer.from(input), lateKey.privateKey).toString('base64url')}`;
    await expect(validator([], undefined, reloads).validate(token)).resolves.toMatchObject({ subject: '1' });
    expect(reloads).toEqual([lateKey.kid]);
  });

  it('does not reload keys for a token of another issuer or a kid no key of ours could have', async () => {
    const reloads: string[] = [];
    await expect(validator([], undefined, reloads).validate(signed(userTokenClaims('https://attacker.example'), { kid: 'kid-3' }))).rejects.toMatchObject({
      code: 'invalid_token',
    });
    await expect(validator([], undefined, reloads).validate(signed(userTokenClaims(ISSUER), { kid: '../../etc/passwd' }))).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(reloads).toEqual([]);
  });

  it('accepts the same name in different objects, and __proto__ as a plain claim', async () => {
    const token = signed(userTokenClaims(ISSUER, { act: { client_id: 'api1', sub: 'x' }, ['__proto__']: { admin: true } }));
    const validated = await validator().validate(token);
    expect(validated.actor).toEqual({ client_id: 'api1' });
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });
});

describe('AccessTokenValidator.validate, a token presented again (verified-token cache)', () => {
  it('answers from the cache from the third presentation on, without verifying the signature', async () => {
    const subject = validator();
    const token = signed(userTokenClaims(ISSUER));
    const first = await subject.validate(token);
    await subject.validate(token);
    const verify = jest.spyOn(JwtService.prototype, 'verifyAsync');
    const verifySync = jest.spyOn(JwtService.prototype, 'verify');
    try {
      await expect(subject.validate(token)).resolves.toEqual(first);
      expect(verify.mock.calls.length + verifySync.mock.calls.length).toBe(0);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('still refuses it at once when it is revoked after it was cached', async () => {
    const revoked: string[] = [];
    const subject = validator(revoked);
    const claims = userTokenClaims(ISSUER);
    await subject.validate(signed(claims));
    await subject.validate(signed(claims));
    revoked.push(claims.jti as string);
    await expect(subject.validate(signed(claims))).rejects.toThrow(expect.objectContaining({ description: 'the token has been revoked' }));
  });

  it('refuses it once the key that verified it is no longer published', async () => {
    const published = new Set([key.kid]);
    const subject = validator([], published);
    const token = signed(userTokenClaims(ISSUER));
    await subject.validate(token);
    await subject.validate(token);
    published.delete(key.kid);
    await expect(subject.validate(token)).rejects.toThrow(expect.objectContaining({ description: 'the token was not signed with a published key' }));
  });

  it('refuses it once it expires', async () => {
    const subject = validator();
    const token = signed({ ...userTokenClaims(ISSUER), exp: now() + 2 });
    await subject.validate(token);
    await subject.validate(token);
    jest.useFakeTimers({ now: (now() + 120) * 1000, doNotFake: ['nextTick', 'setImmediate'] });
    try {
      await expect(subject.validate(token)).rejects.toThrow(invalidToken);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('the forged-token corpus', () => {
  it('holds every forgery of the corpus', () => {
    const names = forgedTokenCorpus({ key, issuer: ISSUER, claims: userTokenClaims(ISSUER) })
      .forgeries.map(({ name }) => name)
      .join('\n');
    for (const pattern of [
      /alg "nOnE"/,
      /HS256 .*SPKI PEM/,
      /HS384 .*SPKI DER/,
      /HS512 .*JWK JSON/,
      /foreign key under our kid/,
      /embedded jwk/,
      /jku/,
      /x5u/,
      /crit/,
      /typ "JWT"/,
      /iss of another issuer/,
      /exp 90 s ago/,
      /nbf 5 minutes ahead/,
      /payload that is an array/,
      /payload that is a string/,
      /payload that is a number/,
      /two sub claims/,
      /two alg header/,
      /over 16 KiB/,
      /JWE/,
      /act nested 9 levels/,
    ]) {
      expect(names).toMatch(pattern);
    }
    expect(createPublicKey(key.privateKey).asymmetricKeyType).toBe('rsa');
  });
});

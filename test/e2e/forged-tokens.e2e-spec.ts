import { constants, createHmac, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { jwtPayload, request, requestToken, userAccessToken } from '../support/http';
import { servicePrivateKey } from '../support/signing-keys';

type Json = Record<string, unknown>;

const encode = (value: Json) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS signed by hand, so that nothing in a library refuses to build what we mean to forge. */
function rsaToken(header: Json, payload: Json, key: KeyObject, { hash = 'sha256', pss = false } = {}): string {
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = sign(hash, Buffer.from(input), pss ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : key);
  return `${input}.${signature.toString('base64url')}`;
}

function hmacToken(header: Json, payload: Json, secret: string): string {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/**
 * docs/tokens.md#validation seen through the delegation grant: each forged `token` is refused with 400
 * invalid_grant. Forgeries start from a real token's header and claims and change one thing;
 * those that must get past the signature check are signed with the service's own key, opened from
 * the database, so that only the property under test is wrong.
 */
describe('POST /connect/token — delegation refuses forged tokens', () => {
  let server: TestServer;
  let header: Json;
  let claims: Json;
  let signature: string;
  let serviceKey: KeyObject;
  let publishedJwk: Json;
  const attackerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const now = () => Math.floor(Date.now() / 1000);

  const delegate = (token: string) => requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' });
  const expectRefused = async (token: string) => expectTokenError(await delegate(token), 400, 'invalid_grant');

  beforeAll(async () => {
    server = await startTestServer();
    const realToken = await userAccessToken(server.url, 'alice', 'openid profile api1');
    const [encodedHeader, , encodedSignature] = realToken.split('.');
    header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
    claims = jwtPayload(realToken);
    signature = encodedSignature;
    serviceKey = await servicePrivateKey(header.kid as string);
    const jwks = await request(`${server.url}/.well-known/openid-configuration/jwks`);
    publishedJwk = jwks.body.keys.find((key: Json) => key.kid === header.kid);
  });
  afterAll(() => server.close());

  it('accepts the real claims re-signed with the service key (the forgeries below change one thing each)', async () => {
    expect(header).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: expect.any(String) });
    const response = await delegate(rsaToken(header, claims, serviceKey));
    expect(response.status).toBe(200);
  });

  describe('alg none', () => {
    it.each(['none', 'None', 'NONE', 'nOnE'])('refuses alg "%s" with an empty signature', async (alg) => {
      await expectRefused(`${encode({ ...header, alg })}.${encode(claims)}.`);
    });

    it('refuses alg "none" that keeps the real signature', async () => {
      await expectRefused(`${encode({ ...header, alg: 'none' })}.${encode(claims)}.${signature}`);
    });

    it('refuses a token with no alg at all', async () => {
      const { alg: _, ...withoutAlg } = header;
      await expectRefused(`${encode(withoutAlg)}.${encode(claims)}.`);
    });
  });

  describe('HMAC signed with the public key', () => {
    const publicKeyText = (): Record<string, string> => {
      const publicKey = createPublicKey({ key: publishedJwk as never, format: 'jwk' });
      const spki = publicKey.export({ format: 'pem', type: 'spki' }).toString();
      const pkcs1 = publicKey.export({ format: 'pem', type: 'pkcs1' }).toString();
      return { 'SPKI PEM': spki, 'SPKI PEM, trimmed': spki.trim(), 'PKCS#1 PEM': pkcs1, 'JWK JSON': JSON.stringify(publishedJwk) };
    };

    it.each(['SPKI PEM', 'SPKI PEM, trimmed', 'PKCS#1 PEM', 'JWK JSON'])('refuses HS256 keyed with the %s of the published key', async (form) => {
      await expectRefused(hmacToken({ ...header, alg: 'HS256' }, claims, publicKeyText()[form]));
    });

    it('refuses HS256 keyed with the public key and no kid', async () => {
      const { kid: _, ...withoutKid } = header;
      await expectRefused(hmacToken({ ...withoutKid, alg: 'HS256' }, claims, publicKeyText()['SPKI PEM']));
    });
  });

  describe('other algorithms with the service key', () => {
    it('refuses RS512, an algorithm the service does not sign with', async () => {
      await expectRefused(rsaToken({ ...header, alg: 'RS512' }, claims, serviceKey, { hash: 'sha512' }));
    });

    it('refuses PS256, an algorithm the service does not sign with', async () => {
      await expectRefused(rsaToken({ ...header, alg: 'PS256' }, claims, serviceKey, { pss: true }));
    });
  });

  describe('claims', () => {
    it.each([
      ['another issuer', 'https://evil.example'],
      ['the issuer with a trailing slash', `${ISSUER}/`],
      ['the issuer in other case', ISSUER.toUpperCase()],
    ])('refuses iss of %s', async (_, iss) => {
      await expectRefused(rsaToken(header, { ...claims, iss }, serviceKey));
    });

    it('refuses a token without iss', async () => {
      const { iss: _, ...withoutIss } = claims;
      await expectRefused(rsaToken(header, withoutIss, serviceKey));
    });

    it('refuses a token expired longer ago than the 60 s clock skew', async () => {
      const issued = now() - 3600;
      await expectRefused(rsaToken(header, { ...claims, iat: issued, nbf: issued, auth_time: issued, exp: now() - 120 }, serviceKey));
    });

    it('refuses a token without exp', async () => {
      const { exp: _, ...withoutExp } = claims;
      await expectRefused(rsaToken(header, withoutExp, serviceKey));
    });

    it('refuses a token whose nbf is further ahead than the clock skew', async () => {
      await expectRefused(rsaToken(header, { ...claims, nbf: now() + 300, exp: now() + 3600 }, serviceKey));
    });

    it('refuses a payload that is not JSON', async () => {
      const input = `${encode(header)}.${Buffer.from('{"sub":"1",').toString('base64url')}`;
      await expectRefused(`${input}.${sign('sha256', Buffer.from(input), serviceKey).toString('base64url')}`);
    });
  });

  describe('tampering', () => {
    it('refuses a payload changed to another user under the real signature', async () => {
      await expectRefused(`${encode(header)}.${encode({ ...claims, sub: '2' })}.${signature}`);
    });

    it('refuses a payload widened to more scopes under the real signature', async () => {
      await expectRefused(`${encode(header)}.${encode({ ...claims, scope: `${claims.scope} email role` })}.${signature}`);
    });

    it('refuses a payload pushed further into the future under the real signature', async () => {
      await expectRefused(`${encode(header)}.${encode({ ...claims, exp: (claims.exp as number) + 86_400 })}.${signature}`);
    });

    it('refuses a flipped bit in the signature', async () => {
      const bytes = Buffer.from(signature, 'base64url');
      bytes[10] ^= 0x01;
      await expectRefused(`${encode(header)}.${encode(claims)}.${bytes.toString('base64url')}`);
    });

    it('refuses a fourth segment', async () => {
      await expectRefused(`${rsaToken(header, claims, serviceKey)}.${signature}`);
    });
  });

  describe('typ', () => {
    it.each(['JWT', 'jwt', 'id_token+jwt', 'at+jwt+evil'])('refuses typ "%s"', async (typ) => {
      await expectRefused(rsaToken({ ...header, typ }, claims, serviceKey));
    });

    it('refuses a token without typ', async () => {
      const { typ: _, ...withoutTyp } = header;
      await expectRefused(rsaToken(withoutTyp, claims, serviceKey));
    });
  });

  describe('keys', () => {
    it('refuses an unknown kid signed with a fresh key', async () => {
      await expectRefused(rsaToken({ ...header, kid: 'unknown-kid' }, claims, attackerKey));
    });

    it('refuses a fresh key that claims the published kid', async () => {
      await expectRefused(rsaToken(header, claims, attackerKey));
    });

    it('refuses a token without kid', async () => {
      const { kid: _, ...withoutKid } = header;
      await expectRefused(rsaToken(withoutKid, claims, serviceKey));
    });

    it('refuses a token that embeds its own key as jwk', async () => {
      const { kid: _, ...withoutKid } = header;
      const jwk = createPublicKey(attackerKey).export({ format: 'jwk' });
      await expectRefused(rsaToken({ ...withoutKid, jwk }, claims, attackerKey));
    });

    it('refuses an embedded jwk next to the published kid', async () => {
      const jwk = createPublicKey(attackerKey).export({ format: 'jwk' });
      await expectRefused(rsaToken({ ...header, jwk }, claims, attackerKey));
    });

    it('refuses a token that points at its own key set with jku', async () => {
      await expectRefused(rsaToken({ ...header, kid: 'attacker', jku: 'https://evil.example/jwks' }, claims, attackerKey));
    });
  });
});

import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';
import { DpopNonces } from './dpop-nonce';
import { accessTokenHash, DPOP_SIGNING_ALGORITHMS } from './dpop-proof';
import { DpopProofValidator, type DpopReplayGuard } from './dpop-proof.validator';

const URL_ = 'https://id.example.com/connect/token';
const NOW = 1_900_000_000_000;
const nonces = new DpopNonces(Buffer.alloc(32, 7), () => NOW);

class MemoryReplays implements DpopReplayGuard {
  readonly seen = new Set<string>();
  async firstUse(jkt: string, jti: string): Promise<boolean> {
    const key = `${jkt} ${jti}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}

let privateKey: CryptoKey;
let jwk: JWK;
beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  jwk = await exportJWK(pair.publicKey);
});

interface ProofOptions {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  alg?: string;
  key?: CryptoKey | Uint8Array;
}

function proof({ header = {}, claims = {}, alg = 'ES256', key = privateKey }: ProofOptions = {}): Promise<string> {
  return new SignJWT({ jti: randomBytes(12).toString('base64url'), htm: 'POST', htu: URL_, iat: NOW / 1000, ...claims })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk, ...header })
    .sign(key);
}

function validator(requireNonce = false, replays: DpopReplayGuard = new MemoryReplays()): DpopProofValidator {
  return new DpopProofValidator({ algorithms: DPOP_SIGNING_ALGORITHMS, requireNonce }, replays, nonces, () => NOW);
}

const request = { method: 'POST', url: URL_ };
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The same signature bytes with a spare low bit of the last character set: decoders ignore it. */
const respell = (token: string) => token.slice(0, -1) + BASE64URL[BASE64URL.indexOf(token.slice(-1)) ^ 1];
/** The proof with its header members changed (the signature no longer matches, but the header is read first). */
const reheaded = (token: string, members: Record<string, unknown>) => {
  const [header, ...rest] = token.split('.');
  const changed = { ...JSON.parse(Buffer.from(header, 'base64url').toString('utf8')), ...members };
  return [Buffer.from(JSON.stringify(changed)).toString('base64url'), ...rest].join('.');
};

describe('DpopProofValidator', () => {
  describe('verify, refusing', () => {
    it.each<[string, () => Promise<string> | string, string]>([
      ['a value that is no compact JWS', () => 'not-a-jws', 'not a compact JWS'],
      ['a proof over 8 KiB', async () => `${await proof()}${'A'.repeat(9000)}`, 'not a compact JWS'],
      ['a signature respelled in its spare bits (RFC 7515 §2)', async () => respell(await proof()), 'canonical base64url'],
      ['typ JWT', () => proof({ header: { typ: 'JWT' } }), 'typ'],
      ['no typ', () => proof({ header: { typ: undefined } }), 'typ'],
      ['alg none', () => `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk })).toString('base64url')}.e30.sig`, 'alg'],
      ['alg HS256', () => proof({ alg: 'HS256', key: new Uint8Array(32) }), 'alg'],
      ['no jwk', () => proof({ header: { jwk: undefined } }), 'no jwk'],
      ['a private jwk', () => proof({ header: { jwk: { ...jwk, d: 'c2VjcmV0' } } }), 'not a public key'],
      ['a signature of another key', async () => (await proof()).replace(/\.[^.]+$/, `.${(await proof({ claims: { jti: 'x' } })).split('.')[2]}`), 'signature'],
      ['htm GET for a POST', () => proof({ claims: { htm: 'GET' } }), 'htm'],
      ['htu of another endpoint', () => proof({ claims: { htu: 'https://id.example.com/connect/userinfo' } }), 'htu'],
      ['htu of another host', () => proof({ claims: { htu: 'https://evil.example.com/connect/token' } }), 'htu'],
      ['htu that is no URL', () => proof({ claims: { htu: 'token' } }), 'htu'],
      ['iat 61 s in the past', () => proof({ claims: { iat: NOW / 1000 - 61 } }), 'iat'],
      ['iat 61 s in the future', () => proof({ claims: { iat: NOW / 1000 + 61 } }), 'iat'],
      ['no iat', () => proof({ claims: { iat: undefined } }), 'iat'],
      ['no jti', () => proof({ claims: { jti: undefined } }), 'jti'],
      ['a jti over 256 characters', () => proof({ claims: { jti: 'j'.repeat(257) } }), 'jti'],
      ['a P-256 key under ES384', async () => reheaded(await proof(), { alg: 'ES384' }), 'no key for ES384'],
      ['an RSA alg with an EC key', async () => reheaded(await proof(), { alg: 'RS256' }), 'no key for RS256'],
      ['a jwk for another alg', () => proof({ header: { jwk: { ...jwk, alg: 'ES512' } } }), 'another alg'],
      ['a jwk for encryption', () => proof({ header: { jwk: { ...jwk, use: 'enc' } } }), 'not for signatures'],
      ['a jwk whose key_ops lack verify', () => proof({ header: { jwk: { ...jwk, key_ops: ['encrypt'] } } }), 'not for verifying'],
      ['a jwk without y', () => proof({ header: { jwk: { ...jwk, y: undefined } } }), 'lacks a member'],
      ['a jwk whose point is not on its curve', () => proof({ header: { jwk: { ...jwk, y: jwk.x } } }), 'not a valid public key'],
      ['a 1024-bit RSA jwk', async () => reheaded(await proof(), { alg: 'RS256', jwk: { kty: 'RSA', e: 'AQAB', n: 'x'.repeat(171) } }), 'too weak'],
      ['a critical extension', async () => reheaded(await proof(), { crit: ['exp'], exp: 1 }), 'extension'],
      ['an unencoded payload (b64)', () => proof({ header: { b64: true } }), 'extension'],
      ['an exp in the past', () => proof({ claims: { exp: NOW / 1000 - 1 } }), 'claims are invalid'],
      ['an nbf in the future', () => proof({ claims: { nbf: NOW / 1000 + 1 } }), 'claims are invalid'],
      [
        'a payload with a repeated member',
        async () => {
          const [header, , signature] = (await proof()).split('.');
          return `${header}.${Buffer.from('{"jti":"a","jti":"b"}').toString('base64url')}.${signature}`;
        },
        'signature or claims',
      ],
    ])('refuses %s as invalid_dpop_proof', async (_, make, reason) => {
      await expect(validator().verify({ ...request, proof: await make() })).rejects.toMatchObject({
        code: 'invalid_dpop_proof',
        status: 400,
        description: expect.stringContaining(reason),
      });
    });

    it('refuses a jti used before, without remembering refused proofs', async () => {
      const replays = new MemoryReplays();
      const used = await proof({ claims: { jti: 'once' } });
      await expect(validator(false, replays).verify({ ...request, method: 'GET', proof: used })).rejects.toMatchObject({ code: 'invalid_dpop_proof' });
      expect(replays.seen.size).toBe(0);
      await validator(false, replays).verify({ ...request, proof: used });
      await expect(validator(false, replays).verify({ ...request, proof: used })).rejects.toMatchObject({
        code: 'invalid_dpop_proof',
        description: 'the DPoP proof was used before (jti)',
      });
    });

    it('refuses a proof whose ath is not the hash of the presented access token, or missing', async () => {
      const forOther = await proof({ claims: { ath: accessTokenHash('other-token') } });
      await expect(validator().verify({ ...request, accessToken: 'the-token', proof: forOther })).rejects.toMatchObject({
        description: expect.stringContaining('ath'),
      });
      await expect(validator().verify({ ...request, accessToken: 'the-token', proof: await proof() })).rejects.toMatchObject({
        description: expect.stringContaining('ath'),
      });
    });

    it('demands a nonce when nonces are required: use_dpop_nonce with a fresh DPoP-Nonce', async () => {
      await expect(validator(true).verify({ ...request, proof: await proof() })).rejects.toMatchObject({
        code: 'use_dpop_nonce',
        options: { dpopNonce: nonces.current() },
      });
      await expect(validator(true).verify({ ...request, proof: await proof({ claims: { nonce: 'made-up' } }) })).rejects.toMatchObject({
        code: 'use_dpop_nonce',
      });
      const stale = new DpopNonces(Buffer.alloc(32, 7), () => NOW - 180_000).current();
      await expect(validator(true).verify({ ...request, proof: await proof({ claims: { nonce: stale } }) })).rejects.toMatchObject({ code: 'use_dpop_nonce' });
      const otherKey = new DpopNonces(Buffer.alloc(32, 8), () => NOW).current();
      await expect(validator(true).verify({ ...request, proof: await proof({ claims: { nonce: otherKey } }) })).rejects.toMatchObject({
        code: 'use_dpop_nonce',
      });
    });
  });

  describe('verify, accepting', () => {
    it('returns the RFC 7638 thumbprint of the proof key', async () => {
      expect(await validator().verify({ ...request, proof: await proof() })).toEqual({ jkt: await calculateJwkThumbprint(jwk, 'sha256') });
    });

    it('verifies every proof of a key it has imported before, and refuses a bad signature of that key', async () => {
      const checking = validator();
      const expected = { jkt: await calculateJwkThumbprint(jwk, 'sha256') };
      for (let i = 0; i < 3; i++) expect(await checking.verify({ ...request, proof: await proof() })).toEqual(expected);
      // Members outside the thumbprint change nothing: the same key, by thumbprint.
      expect(await checking.verify({ ...request, proof: await proof({ header: { jwk: { ...jwk, kid: 'k1', alg: 'ES256' } } }) })).toEqual(expected);
      const forged = (await proof()).replace(/\.[^.]+$/, `.${(await proof({ claims: { jti: 'x' } })).split('.')[2]}`);
      await expect(checking.verify({ ...request, proof: forged })).rejects.toMatchObject({ description: expect.stringContaining('signature') });
    });

    it('compares htu without query or fragment, scheme and host case-insensitively, default port dropped', async () => {
      const htu = 'HTTPS://ID.example.com:443/connect/token?x=1#frag';
      await expect(validator().verify({ ...request, proof: await proof({ claims: { htu } }) })).resolves.toHaveProperty('jkt');
    });

    it('accepts an iat 60 s off either way, the matching ath, and a nonce of this or the previous minute', async () => {
      const previous = new DpopNonces(Buffer.alloc(32, 7), () => NOW - 60_000).current();
      const claims = { iat: NOW / 1000 - 60, ath: accessTokenHash('the-token'), nonce: previous };
      await expect(validator(true).verify({ ...request, accessToken: 'the-token', proof: await proof({ claims }) })).resolves.toHaveProperty('jkt');
      await expect(
        validator(true).verify({ ...request, proof: await proof({ claims: { iat: NOW / 1000 + 60, nonce: nonces.current() } }) }),
      ).resolves.toHaveProperty('jkt');
    });

    it.each(['RS256', 'PS256', 'EdDSA', 'Ed25519'])('accepts a proof signed with %s', async (alg) => {
      const pair = await generateKeyPair(alg);
      const publicJwk = await exportJWK(pair.publicKey);
      const signed = await new SignJWT({ jti: 'a', htm: 'POST', htu: URL_, iat: NOW / 1000 })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk: publicJwk })
        .sign(pair.privateKey);
      expect(await validator().verify({ ...request, proof: signed })).toEqual({ jkt: await calculateJwkThumbprint(publicJwk, 'sha256') });
    });
  });
});

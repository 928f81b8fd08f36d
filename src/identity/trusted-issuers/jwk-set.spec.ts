import { generateKeyPairSync } from 'node:crypto';
import { usableJwkSet } from './jwk-set';

const ec = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'a' };

describe('usableJwkSet', () => {
  it('refuses a document that is not a JWK Set, or too many keys', () => {
    expect(() => usableJwkSet(null, false)).toThrow('not a JWK Set');
    expect(() => usableJwkSet({ keys: 'x' }, false)).toThrow('not a JWK Set');
    expect(() => usableJwkSet({ keys: Array.from({ length: 101 }, () => ec) }, false)).toThrow('more than 100 keys');
  });

  it('drops private and symmetric keys, encryption keys and non-objects', () => {
    const set = usableJwkSet({ keys: [{ ...ec, d: 'secret' }, { kty: 'oct', k: 'c2VjcmV0' }, { ...ec, use: 'enc' }, 'x', null, { kid: 'no-kty' }] }, false);
    expect(set.jwks.keys).toEqual([]);
  });

  it('drops RSA keys under 2048 bits, which nothing may be verified with (RFC 7518 §3.3)', () => {
    const rsa = (bits: number) => ({ ...generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' }), kid: `rsa-${bits}` });
    const strong = rsa(2048);
    expect(usableJwkSet({ keys: [rsa(1024), strong, rsa(512)] }, false).jwks.keys).toEqual([strong]);
  });

  it('keeps signature keys with or without use', () => {
    expect(usableJwkSet({ keys: [ec, { ...ec, kid: 'b', use: 'sig' }] }, false).jwks.keys).toEqual([ec, { ...ec, kid: 'b', use: 'sig' }]);
  });

  it('ignores jwt-svid keys and the refresh hint outside a SPIFFE bundle', () => {
    expect(usableJwkSet({ keys: [{ ...ec, use: 'jwt-svid' }], spiffe_refresh_hint: 60 }, false)).toEqual({ jwks: { keys: [] }, refreshHintSeconds: undefined });
  });

  it('reads a SPIFFE bundle: jwt-svid keys become signature keys, x509-svid roots are dropped, the refresh hint is kept', () => {
    const bundle = {
      spiffe_sequence: 3,
      spiffe_refresh_hint: 300,
      keys: [
        { ...ec, use: 'jwt-svid' },
        { kty: 'EC', use: 'x509-svid', x5c: ['MII='] },
      ],
    };
    expect(usableJwkSet(bundle, true)).toEqual({ jwks: { keys: [{ ...ec, use: 'sig' }] }, refreshHintSeconds: 300 });
  });

  it('ignores a refresh hint that is not a positive integer', () => {
    expect(usableJwkSet({ keys: [], spiffe_refresh_hint: -1 }, true).refreshHintSeconds).toBeUndefined();
    expect(usableJwkSet({ keys: [], spiffe_refresh_hint: '60' }, true).refreshHintSeconds).toBeUndefined();
  });
});

'use strict';
/**
 * DPoP proofs (RFC 9449 §4.2) for the load generator: one ES256 key, a fresh proof (new jti, iat now)
 * per request. autocannon's setupRequest is synchronous, so the compact JWS is assembled here with
 * node:crypto (acceptable in the harness only, like the baseline's tokens); Tollgate verifies it with jose.
 */
const crypto = require('node:crypto');

function dpopProofs(htm, htu) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const header = Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })).toString('base64url');
  return () => {
    const payload = { jti: crypto.randomBytes(16).toString('base64url'), htm, htu, iat: Math.floor(Date.now() / 1000) };
    const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${input}.${crypto.sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
}

module.exports = { dpopProofs };

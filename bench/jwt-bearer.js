'use strict';
/**
 * The jwt-bearer grant (docs/chaining.md) for bench/run.js: redemptions of JWT authorization grants of
 * the demo authorization-grant issuer (https://enterprise-idp.demo.example, the demo-idp key), as the
 * demo client enterprise-agent. Every assertion has its own jti (each may be presented once), so the
 * scenario is a pool of distinct assertions taken in turn; the issuer's keys are inline and hot.
 *
 * `node bench/jwt-bearer.js cold` (run by `npm run bench` after bench/run.js) measures the cold cases
 * in-process on the built service's classes: an issuer whose keys come from a jwks_uri (a local HTTP
 * server) not fetched yet, a rotated key's unknown `kid`, and a `kid` never published. The assertions
 * are signed with node:crypto here (the harness only); Tollgate verifies them with jsonwebtoken (EdDSA: jose).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const DIST = path.resolve(__dirname, '..', 'dist', 'src');

const ISSUER = 'https://enterprise-idp.demo.example';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const POOL_SIZE = Number(process.env.BENCH_POOL) || 12_000;
const demoKeys = JSON.parse(fs.readFileSync(path.join(__dirname, '../test/fixtures/demo-keys.json'), 'utf8'));

/** A compact ES256 JWS (RFC 7515 §3.1) of `claims`, signed with `key`. */
function sign(claims, key, header) {
  const input = [header, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.');
  return `${input}.${crypto.sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

function assertions(audience, count, key = crypto.createPrivateKey({ key: demoKeys['demo-idp'].private, format: 'jwk' }), issuer = ISSUER, kid = 'demo-idp-1') {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, () =>
    sign({ iss: issuer, sub: 'idp|alice', email: 'alice@example.com', aud: audience, iat: now, exp: now + 300, jti: crypto.randomUUID() }, key, {
      alg: 'ES256',
      typ: 'JWT',
      kid,
    }),
  );
}

const SCENARIOS = [
  {
    name: 'jwt_bearer',
    description: `POST /connect/token grant_type=${JWT_BEARER}, scope "api1", as enterprise-agent: each request another of a pool of distinct assertions of the demo authorization-grant issuer (inline keys, hot); an access token only, as delegation issues (with "openid" an ID token adds a second signature)`,
    unsupported: {
      baseline: 'no jwt-bearer grant',
      design: 'no jwt-bearer grant',
      floor: 'no jwt-bearer grant',
      'oidc-provider': 'no jwt-bearer grant',
    },
    prepare: async (baseUrl) => {
      const audience = /** @type {{ issuer: string }} */ (await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json()).issuer;
      const form = (assertion) => new URLSearchParams({ grant_type: JWT_BEARER, assertion, scope: 'api1' }).toString();
      // One more than the pool: the harness's single probe request must not use up a pooled assertion.
      const [probe, ...pool] = assertions(audience, POOL_SIZE + 1).map((assertion) => ({ body: form(assertion) }));
      return {
        method: 'POST',
        // Its own path spelling: run.js keeps one pool file per URL.
        path: '/connect/token?bench=jwt_bearer',
        headers: {
          authorization: `Basic ${Buffer.from('enterprise-agent:enterprise-agent-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: probe.body,
        pool,
      };
    },
  },
];

/**
 * `cold`: the signature check of an issuer whose keys come from a jwks_uri, in four cases: the set
 * not fetched yet (first redemption), the keys cached (hot), a `kid` the cached set lacks after the
 * issuer rotated its keys over a minute ago (one refetch, then the check), and a `kid` the issuer
 * never published, within the refetch cooldown (refused without a fetch). Counts the fetches.
 */
async function cold(rounds = Number(process.env.BENCH_ROUNDS) || 200) {
  const { AuthorizationGrantIssuers } = require(path.join(DIST, 'identity/trusted-issuers/authorization-grant-issuers'));
  const { JwkSetResolver } = require(path.join(DIST, 'identity/trusted-issuers/jwk-set.resolver'));
  const { DEFAULT_JWK_SET_CACHE_POLICY, RemoteJwkSetCache } = require(path.join(DIST, 'identity/trusted-issuers/remote-jwk-set.cache'));
  const { JwkSetFetcher } = require(path.join(DIST, 'identity/trusted-issuers/jwk-set.fetcher'));
  const keyPair = (kid) => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
  };
  const [old, rotated, never] = [keyPair('cold-1'), keyPair('cold-2'), keyPair('never-published')];
  let published = [old];
  let fetches = 0;
  const server = http.createServer((_request, response) => {
    fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published.map((key) => key.jwk) }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const issuer = { issuer: 'https://cold.example', userClaim: 'sub', identityScopes: [], maxLifetimeSeconds: 300, trustedBy: ['enterprise-agent'] };
  const uri = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/jwks`;
  const trusted = { issuer: issuer.issuer, role: 'authorization-grant', kind: 'jwt', keys: { type: 'remote', uri }, enabled: true, authorizationGrant: issuer };
  const store = { find: async () => trusted };
  const signed = (key) => assertions('http://localhost', 1, key.privateKey, issuer.issuer, key.kid)[0];
  const cases = ['first fetch', 'hot', 'rotated kid', 'unknown kid'];
  const timings = Object.fromEntries(cases.map((name) => [name, { ms: /** @type {number[]} */ ([]), fetches: 0, refused: 0 }]));
  const time = async (name, issuers, assertion) => {
    const [started, fetchesBefore] = [process.hrtime.bigint(), fetches];
    const accepted = await issuers.verifySignature(assertion, issuer).then(
      () => true,
      () => false,
    );
    timings[name].ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    timings[name].fetches += fetches - fetchesBefore;
    if (!accepted) timings[name].refused += 1;
  };
  for (let round = 0; round < rounds; round += 1) {
    // A fresh cache each round, on a clock of its own: its first check fetches the key set.
    let now = Date.now();
    const cache = new RemoteJwkSetCache(new JwkSetFetcher(), { ...DEFAULT_JWK_SET_CACHE_POLICY, now: () => now });
    const issuers = new AuthorizationGrantIssuers(store, new JwkSetResolver(cache), { issuer: 'http://localhost' });
    published = [old];
    await time('first fetch', issuers, signed(old));
    await time('hot', issuers, signed(old));
    await time('unknown kid', issuers, signed(never));
    // The issuer adds a key; its first assertion comes after the refetch cooldown.
    published = [old, rotated];
    now += DEFAULT_JWK_SET_CACHE_POLICY.unknownKidRefetchMs + 1000;
    await time('rotated kid', issuers, signed(rotated));
  }
  server.close();
  console.log(`jwt-bearer signature check against a jwks_uri (ES256, a local key server), ${rounds} rounds of a fresh cache:`);
  for (const name of cases) {
    const sorted = [...timings[name].ms].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(3);
    const { fetches: fetched, refused } = timings[name];
    console.log(`  ${name.padEnd(12)} p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; key set fetches ${fetched}, refused ${refused} of ${sorted.length}`);
  }
}

module.exports = { SCENARIOS };

if (require.main === module && process.argv[2] === 'cold') {
  cold().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

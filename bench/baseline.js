'use strict';
/**
 * The bare baseline: a plain node:http server doing only the work each benchmark scenario cannot
 * avoid (parse the form, check the client secret hash, verify the incoming JWT, sign the new one,
 * return JSON; for userinfo verify the JWT and return claims from memory). No framework, no
 * database. The harness (bench/run.js) drives it with the same load as Tollgate and reports
 * Tollgate's throughput as a ratio of this one. Not for production: the compact JWS is hand-rolled.
 *
 * Env: PORT (0 = any), HOST (127.0.0.1), SIGNING_ALG (RS256 | PS256 | ES256 | EdDSA). Prints one JSON line
 * `{"listening": port}` on stdout once it accepts connections.
 *
 * BASELINE_JWT=nestjs is the design-card limit: the same server, but every JWS is signed and verified as
 * Tollgate does it (src/tokens/access-token/jws.ts): @nestjs/jwt's JwtService, used standalone with the
 * KeyObjects, for RS/PS/ES, and jose for EdDSA. No server that keeps that design can beat it.
 */
const http = require('node:http');
const crypto = require('node:crypto');
const querystring = require('node:querystring');

const ALGORITHMS = {
  RS256: { generate: () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }), options: {} },
  PS256: {
    generate: () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }),
    options: { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
  },
  ES256: { generate: () => crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }), options: { dsaEncoding: 'ieee-p1363' } },
  // Ed25519 hashes internally: node:crypto takes no digest for it.
  EdDSA: { generate: () => crypto.generateKeyPairSync('ed25519'), options: {}, digest: null },
};

let issuer = 'http://localhost';
const BODY_LIMIT_BYTES = 64 * 1024;
const CLOCK_SKEW_SECONDS = 60;
const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

const algorithm = process.env.SIGNING_ALG || 'RS256';
if (!ALGORITHMS[algorithm]) {
  console.error(`SIGNING_ALG must be one of ${Object.keys(ALGORITHMS).join(', ')}`);
  process.exit(1);
}
const { options: signOptions, digest = 'sha256' } = ALGORITHMS[algorithm];
const { privateKey, publicKey } = ALGORITHMS[algorithm].generate();
const kid = 'baseline-' + algorithm.toLowerCase();
const encodedHeader = base64url(JSON.stringify({ alg: algorithm, typ: 'at+jwt', kid }));

const sha256 = (value) => crypto.createHash('sha256').update(value, 'utf8').digest();
const clients = new Map(
  [
    { clientId: 'frontend', secret: 'frontend-secret', grantTypes: ['password'], scopes: ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'] },
    { clientId: 'api1', secret: 'api1-secret', grantTypes: ['delegation'], scopes: ['openid', 'profile', 'role', 'api2'] },
    { clientId: 'api2', secret: 'api2-secret', grantTypes: ['delegation'], scopes: ['openid', 'profile', 'api3'] },
    { clientId: 'm2m', secret: 'm2m-secret', grantTypes: ['client_credentials'], scopes: ['api1', 'api2'] },
  ].map((client) => [client.clientId, { ...client, secretHash: sha256(client.secret) }]),
);
const IDENTITY_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'updated_at'],
  email: ['email', 'email_verified'],
  role: ['role'],
};
const API_SCOPES = new Set(['api1', 'api2', 'api3']);
const users = [
  {
    sub: '1',
    username: 'alice',
    password: 'alice',
    claims: {
      name: 'Alice Smith',
      given_name: 'Alice',
      family_name: 'Smith',
      preferred_username: 'alice',
      email: 'alice@example.com',
      email_verified: true,
      role: ['admin', 'user'],
      updated_at: 1700000000,
    },
  },
  {
    sub: '2',
    username: 'bob',
    password: 'bob',
    claims: { name: 'Bob Jones', given_name: 'Bob', family_name: 'Jones', preferred_username: 'bob', role: ['user'], updated_at: 1700000000 },
  },
].map((user) => {
  const salt = crypto.randomBytes(16);
  return { ...user, salt, passwordHash: crypto.scryptSync(user.password, salt, 32, SCRYPT) };
});
const usersByName = new Map(users.map((user) => [user.username, user]));
const usersBySub = new Map(users.map((user) => [user.sub, user]));

function base64url(text) {
  return Buffer.from(text, 'utf8').toString('base64url');
}

const design = process.env.BASELINE_JWT === 'nestjs';
if (process.env.BASELINE_JWT && !design) {
  console.error('BASELINE_JWT must be nestjs or unset');
  process.exit(1);
}
/** @type {import('@nestjs/jwt').JwtService} The design-card mode's only: never called in the bare mode. */
const jwtService = design ? new (require('@nestjs/jwt').JwtService)({}) : /** @type {any} */ (undefined);
const jose = design && algorithm === 'EdDSA' ? require('jose') : undefined;

function sign(claims) {
  if (design) {
    // As signJws: the header and KeyObject handed over, jose for EdDSA.
    const header = { alg: algorithm, typ: 'at+jwt', kid };
    if (jose) return new jose.SignJWT(claims).setProtectedHeader(header).sign(privateKey);
    return jwtService.sign(claims, { privateKey, algorithm: /** @type {import('jsonwebtoken').Algorithm} */ (algorithm), keyid: kid, header });
  }
  const input = encodedHeader + '.' + base64url(JSON.stringify(claims));
  return input + '.' + crypto.sign(digest, Buffer.from(input), { key: privateKey, ...signOptions }).toString('base64url');
}

/**
 * Verifies a compact JWS access token and returns its claims, or undefined (a promise of them only for
 * EdDSA in the design-card mode: jose is async; the bare path stays synchronous as it was measured).
 */
function verify(token) {
  if (typeof token !== 'string' || token.length > 16 * 1024) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    if (header.typ !== 'at+jwt' || header.alg !== algorithm || header.kid !== kid) return undefined;
    if (design) return verifyAsTollgate(token);
    const data = Buffer.from(parts[0] + '.' + parts[1]);
    if (!crypto.verify(digest, data, { key: publicKey, ...signOptions }, Buffer.from(parts[2], 'base64url'))) return undefined;
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== issuer || !(claims.exp > now - CLOCK_SKEW_SECONDS) || claims.nbf > now + CLOCK_SKEW_SECONDS) return undefined;
    return claims;
  } catch {
    return undefined;
  }
}

/** As verifyJws: JwtService.verify with the public KeyObject, one algorithm, the issuer and 60 s of skew; jose for EdDSA. */
function verifyAsTollgate(token) {
  if (jose) {
    return jose.jwtVerify(token, publicKey, { algorithms: ['EdDSA'], issuer, clockTolerance: CLOCK_SKEW_SECONDS }).then(
      (result) => result.payload,
      () => undefined,
    );
  }
  return jwtService.verify(token, {
    publicKey,
    algorithms: [/** @type {import('jsonwebtoken').Algorithm} */ (algorithm)],
    issuer,
    clockTolerance: CLOCK_SKEW_SECONDS,
  });
}

function authenticateClient(authorization) {
  if (!authorization || !authorization.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const client = clients.get(decodeURIComponent(decoded.slice(0, colon)));
  const presented = sha256(decodeURIComponent(decoded.slice(colon + 1)));
  return client && crypto.timingSafeEqual(client.secretHash, presented) ? client : undefined;
}

function audiencesFor(scopes) {
  const audiences = scopes.filter((scope) => API_SCOPES.has(scope));
  return audiences.length === 0 ? `${issuer}/resources` : audiences.length === 1 ? audiences[0] : audiences;
}

function tokenClaims(client, scopes, extra) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    ...extra.subject,
    aud: audiencesFor(scopes),
    client_id: client.clientId,
    scope: scopes.join(' '),
    iat: now,
    nbf: now,
    exp: Math.min(now + ACCESS_TOKEN_LIFETIME_SECONDS, extra.expiresAtMost ?? Infinity),
    jti: crypto.randomBytes(16).toString('base64url'),
    ...extra.user,
  };
}

async function grant(client, form) {
  const scopes = typeof form.scope === 'string' ? [...new Set(form.scope.split(' ').filter(Boolean))] : client.scopes;
  if (!scopes.every((scope) => client.scopes.includes(scope))) return [400, { error: 'invalid_scope' }];
  switch (form.grant_type) {
    case 'client_credentials':
      return [200, tokenClaims(client, scopes, {})];
    case 'password': {
      const user = usersByName.get(form.username);
      const password = typeof form.password === 'string' ? form.password : '';
      const derived = await new Promise((resolve, reject) =>
        crypto.scrypt(password, user ? user.salt : users[0].salt, 32, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
      );
      if (!user || !crypto.timingSafeEqual(derived, user.passwordHash)) return [400, { error: 'invalid_grant' }];
      const now = Math.floor(Date.now() / 1000);
      return [200, tokenClaims(client, scopes, { subject: { sub: user.sub }, user: { auth_time: now, amr: ['pwd'] } })];
    }
    case 'delegation': {
      const verified = verify(form.token);
      const subject = verified instanceof Promise ? await verified : verified;
      if (!subject || typeof subject.sub !== 'string') return [400, { error: 'invalid_grant' }];
      const granted = subject.scope.split(' ');
      if (scopes.some((scope) => IDENTITY_CLAIMS[scope] && !granted.includes(scope))) return [400, { error: 'invalid_scope' }];
      const act = subject.act ? { client_id: client.clientId, act: subject.act } : { client_id: client.clientId };
      return [
        200,
        tokenClaims(client, scopes, {
          subject: { sub: subject.sub },
          user: { auth_time: subject.auth_time, amr: ['delegation'], act },
          expiresAtMost: subject.exp,
        }),
      ];
    }
    default:
      return [400, { error: 'unsupported_grant_type' }];
  }
}

async function token(request, body) {
  if ((request.headers['content-type'] || '').split(';')[0].trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    return [400, { error: 'invalid_request' }];
  }
  const client = authenticateClient(request.headers.authorization);
  if (!client) return [401, { error: 'invalid_client' }];
  return issue(client, querystring.parse(body));
}

/** The token endpoint after client authentication. */
async function issue(client, form) {
  if (!client.grantTypes.includes(form.grant_type)) return [400, { error: 'unauthorized_client' }];
  const [status, result] = await grant(client, form);
  if (status !== 200) return [status, result];
  return [200, { access_token: sign(result), token_type: 'Bearer', expires_in: result.exp - result.iat, scope: result.scope }];
}

function userinfo(request) {
  const authorization = request.headers.authorization || '';
  if (!/^bearer /i.test(authorization)) return [401, { error: 'invalid_token' }];
  const verified = verify(authorization.slice(7).trim());
  return verified instanceof Promise ? verified.then(userinfoResponse) : userinfoResponse(verified);
}

function userinfoResponse(claims) {
  const user = claims && usersBySub.get(claims.sub);
  if (!user) return [401, { error: 'invalid_token' }];
  const scopes = claims.scope.split(' ');
  if (!scopes.includes('openid')) return [403, { error: 'insufficient_scope' }];
  const result = { sub: user.sub };
  for (const scope of scopes) {
    for (const name of IDENTITY_CLAIMS[scope] || []) if (user.claims[name] !== undefined) result[name] = user.claims[name];
  }
  return [200, result];
}

// The authorization scenarios: mcp-client, and clients named by a metadata document (bench/metadata-documents.js).
const AUTHORIZE_SCOPES = ['openid', 'profile', 'notes', 'offline_access'];
const registeredClients = new Map([['mcp-client', { clientId: 'mcp-client', redirectUris: ['http://127.0.0.1:5181/callback'] }]]);
const DOCUMENT_LIMIT_BYTES = 5 * 1024;
const DOCUMENT_CACHE_MS = 5 * 60_000;
const MAX_DOCUMENTS = 1000;
const MAX_CODES = 100_000;
const CODE_LIFETIME_MS = 60_000;
const documents = new Map();
const codes = new Map();
// Alice's session, as the harness gives it (it has no sign-in pages): a fixed secret compared in constant time.
const sessionHash = sha256(process.env.BASELINE_SESSION || crypto.randomBytes(16).toString('base64url'));

/** A client named by a metadata document: fetched (no redirects, 5 s, 5 KiB), checked, cached in memory. */
async function documentClient(url) {
  const cached = documents.get(url);
  if (cached && cached.expires > Date.now()) return cached.client;
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
    const text = await response.text();
    if (response.status !== 200 || Buffer.byteLength(text) > DOCUMENT_LIMIT_BYTES) return undefined;
    const document = JSON.parse(text);
    if (document?.client_id !== url || !Array.isArray(document.redirect_uris) || 'client_secret' in document) return undefined;
    const client = { clientId: url, redirectUris: document.redirect_uris.filter((uri) => typeof uri === 'string') };
    if (documents.size >= MAX_DOCUMENTS) documents.delete(documents.keys().next().value);
    documents.set(url, { client, expires: Date.now() + DOCUMENT_CACHE_MS });
    return client;
  } catch {
    return undefined;
  }
}

function sessionUser(cookieHeader) {
  const value = /(?:^|;\s*)baseline_session=([^;]*)/.exec(cookieHeader || '')?.[1];
  return value !== undefined && crypto.timingSafeEqual(sha256(value), sessionHash) ? users[0] : undefined;
}

/** GET /connect/authorize for a signed-in user whose consent is not asked: a code, stored hashed in memory, answered as JSON. */
async function authorize(request) {
  const query = querystring.parse((request.url ?? '').split('?')[1] ?? '');
  const clientId = query.client_id;
  if (typeof clientId !== 'string') return [400, { error: 'invalid_request' }];
  const client = /^https?:\/\//.test(clientId) ? await documentClient(clientId) : registeredClients.get(clientId);
  if (!client || typeof query.redirect_uri !== 'string' || !client.redirectUris.includes(query.redirect_uri)) return [400, { error: 'invalid_client' }];
  const challenge = query.code_challenge;
  if (query.response_type !== 'code' || query.code_challenge_method !== 'S256' || typeof challenge !== 'string' || challenge.length !== 43) {
    return [400, { error: 'invalid_request' }];
  }
  const scopes = typeof query.scope === 'string' ? query.scope.split(' ').filter(Boolean) : [];
  if (!scopes.every((scope) => AUTHORIZE_SCOPES.includes(scope))) return [400, { error: 'invalid_scope' }];
  const user = sessionUser(request.headers.cookie);
  if (!user) return [400, { error: 'login_required' }];
  const code = crypto.randomBytes(32).toString('base64url');
  if (codes.size >= MAX_CODES) codes.delete(codes.keys().next().value);
  codes.set(sha256(code).toString('base64url'), {
    clientId,
    redirectUri: query.redirect_uri,
    challenge,
    sub: user.sub,
    scopes,
    expires: Date.now() + CODE_LIFETIME_MS,
  });
  return [200, { code, state: query.state, iss: issuer }];
}

function send(response, status, body) {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
  });
  response.end(json);
}

function listen() {
  const server = http.createServer((request, response) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0];
      const handled =
        request.method === 'POST' && path === '/connect/token'
          ? token(request, Buffer.concat(chunks).toString('utf8'))
          : request.method === 'GET' && path === '/connect/userinfo'
            ? userinfo(request)
            : request.method === 'GET' && path === '/connect/authorize'
              ? authorize(request)
              : path === '/health'
                ? [200, { status: 'ok' }]
                : [404, { error: 'not_found' }];
      Promise.resolve(handled).then(
        ([status, body]) => send(response, status, body),
        () => send(response, 500, { error: 'server_error' }),
      );
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(Number(process.env.PORT || 0), process.env.HOST || '127.0.0.1', () => {
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    issuer = process.env.ISSUER || `http://localhost:${port}`;
    process.stdout.write(JSON.stringify({ listening: port, algorithm, jwt: design ? 'nestjs' : 'node:crypto' }) + '\n');
  });
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
      setTimeout(() => process.exit(0), 1000).unref();
    });
  }
}

/** The handlers, for bench/nest-floor.js; run directly, the bare server. */
module.exports = { algorithm, authenticateClient, issue, userinfo, authorize, setIssuer: (value) => (issuer = value) };
if (require.main === module) listen();

/**
 * node-oidc-provider (panva/node-oidc-provider, the `oidc-provider` package) doing Tollgate's benchmark jobs
 * where it can, as a further reference for bench/run.js. Not for production.
 *
 * - client_credentials: RFC 9068 JWT access tokens through resource indicators (`features.resourceIndicators`,
 *   `accessTokenFormat: 'jwt'`). oidc-provider issues one audience per token, so `scope=api1 api2` gets the
 *   default resource `urn:tollgate:apis` covering all three API scopes.
 * - delegation: a grant of our own, registered with `registerGrantType`: it verifies the incoming JWT access token
 *   (jose, the provider's public key, `typ` at+jwt, issuer, lifetime), checks that it is addressed to the calling
 *   client and that identity scopes were granted, and issues a new JWT access token for the user with `act`.
 * - userinfo: oidc-provider's UserInfo endpoint takes only opaque access tokens without an audience (its
 *   validateAudience step refuses any token with `aud`, which every JWT access token of the resourceIndicators feature
 *   carries). So tokens asked for with identity scopes only are issued opaque, with a Grant, and UserInfo is measured
 *   with those: a lookup in the in-memory adapter, no signature verification (a cheaper job than Tollgate's).
 * - password: another grant of our own (OAuth 2.1 and oidc-provider dropped it), scrypt with the baseline's cost;
 *   it also mints alice's tokens for the other scenarios.
 *
 * Storage is an unbounded Map adapter (the bundled memory adapter is an LRU of 1,000 entries, too small for the
 * cold pools). Env: PORT, HOST, SIGNING_ALG (RS256 | PS256 | ES256 | EdDSA). Answers GET /health with 200.
 */
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import Provider, { errors } from 'oidc-provider';
import { jwtVerify } from 'jose';

const algorithm = process.env.SIGNING_ALG || 'RS256';
const port = Number(process.env.PORT);
const host = process.env.HOST || '127.0.0.1';
const issuer = `http://localhost:${port}`;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const TTL = 3600;

const { privateKey, publicKey } =
  algorithm === 'ES256'
    ? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : algorithm === 'EdDSA'
      ? crypto.generateKeyPairSync('ed25519')
      : crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: `oidc-provider-${algorithm.toLowerCase()}`, alg: algorithm, use: 'sig' };

const storage = new Map();
class MapAdapter {
  constructor(name) {
    this.name = name;
  }
  key(id) {
    return `${this.name}:${id}`;
  }
  async upsert(id, payload, expiresIn) {
    storage.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
  }
  async find(id) {
    const entry = storage.get(this.key(id));
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  }
  async findByUserCode() {}
  async findByUid() {}
  async consume(id) {
    const entry = storage.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    storage.delete(this.key(id));
  }
  async revokeByGrantId() {}
}

const IDENTITY = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'updated_at'],
  email: ['email', 'email_verified'],
  role: ['role'],
};
const API_SCOPES = new Set(['api1', 'api2', 'api3']);
const salt = crypto.randomBytes(16);
const alice = {
  sub: '1',
  passwordHash: crypto.scryptSync('alice', salt, 32, SCRYPT),
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
};
const resourceServer = (resource) => ({
  scope: resource === 'urn:tollgate:apis' ? 'api1 api2 api3' : resource.slice('urn:'.length),
  audience: resource,
  accessTokenFormat: 'jwt',
  accessTokenTTL: TTL,
  jwt: { sign: { alg: algorithm } },
});
const client = (client_id, grant_types, scope) => ({
  client_id,
  client_secret: `${client_id}-secret`,
  grant_types,
  response_types: [],
  redirect_uris: [],
  scope,
});

// The user-token claims a grant adds (auth_time, amr, act): oidc-provider takes them from extraTokenClaims.
const extraClaims = new WeakMap();

const provider = new Provider(issuer, {
  adapter: MapAdapter,
  jwks: { keys: [jwk] },
  clients: [
    client('frontend', ['password'], 'openid profile email role api1 offline_access'),
    client('api1', ['delegation'], 'openid profile role api2'),
    client('api2', ['delegation'], 'openid profile api3'),
    client('m2m', ['client_credentials'], 'api1 api2'),
  ],
  scopes: ['openid', 'offline_access', 'profile', 'email', 'role', 'api1', 'api2', 'api3'],
  claims: IDENTITY,
  findAccount: (ctx, id) => (id === alice.sub ? { accountId: id, claims: () => ({ sub: id, ...alice.claims }) } : undefined),
  enabledJWA: { idTokenSigningAlgValues: [algorithm] },
  clientDefaults: { id_token_signed_response_alg: algorithm },
  extraTokenClaims: (ctx) => extraClaims.get(ctx),
  ttl: { AccessToken: TTL, ClientCredentials: TTL, Grant: TTL },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'urn:tollgate:apis',
      getResourceServerInfo: (ctx, resource) => {
        if (resource !== 'urn:tollgate:apis' && !/^urn:api[123]$/.test(resource)) throw new errors.InvalidTarget();
        return resourceServer(resource);
      },
      useGrantedResource: () => true,
    },
  },
});
provider.on('server_error', (ctx, error) => console.error(error));

/** A token for alice: a JWT for the one API scope's resource when one is asked for, else opaque for UserInfo. */
async function issueUserToken(ctx, scopes, extra) {
  const { client } = ctx.oidc;
  extraClaims.set(ctx, extra);
  const api = scopes.find((scope) => API_SCOPES.has(scope));
  if (api) {
    const token = new provider.AccessToken({ accountId: alice.sub, client, grantId: crypto.randomUUID(), scope: scopes.join(' ') });
    token.resourceServer = new provider.ResourceServer(`urn:${api}`, resourceServer(`urn:${api}`));
    return respond(ctx, token);
  }
  const grant = new provider.Grant({ accountId: alice.sub, clientId: client.clientId });
  grant.addOIDCScope(scopes.join(' '));
  const token = new provider.AccessToken({ accountId: alice.sub, client, grantId: await grant.save(), scope: scopes.join(' ') });
  return respond(ctx, token);
}

async function respond(ctx, token) {
  const value = await token.save();
  ctx.body = { access_token: value, token_type: 'Bearer', expires_in: token.expiration, scope: token.scope };
}

function requestedScopes(ctx) {
  const scopes = [
    ...new Set(
      String(ctx.oidc.params.scope || '')
        .split(' ')
        .filter(Boolean),
    ),
  ];
  const allowed = new Set(ctx.oidc.client.scope.split(' '));
  if (scopes.length === 0 || !scopes.every((scope) => allowed.has(scope))) throw new errors.InvalidScope('scope not allowed', ctx.oidc.params.scope);
  return scopes;
}

provider.registerGrantType(
  'password',
  async (ctx) => {
    const scopes = requestedScopes(ctx);
    const { username, password } = ctx.oidc.params;
    const derived = await new Promise((resolve, reject) =>
      crypto.scrypt(String(password ?? ''), salt, 32, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
    );
    if (username !== 'alice' || !crypto.timingSafeEqual(derived, alice.passwordHash)) throw new errors.InvalidGrant('wrong credentials');
    await issueUserToken(ctx, scopes, { auth_time: Math.floor(Date.now() / 1000), amr: ['pwd'] });
  },
  ['username', 'password', 'scope'],
);

provider.registerGrantType(
  'delegation',
  async (ctx) => {
    const scopes = requestedScopes(ctx);
    let subject;
    try {
      ({ payload: subject } = await jwtVerify(String(ctx.oidc.params.token ?? ''), publicKey, { issuer, algorithms: [algorithm], typ: 'at+jwt' }));
    } catch {
      throw new errors.InvalidGrant('the subject token is invalid');
    }
    const clientId = ctx.oidc.client.clientId;
    if (!(/** @type {unknown[]} */ ([]).concat(subject.aud).includes(`urn:${clientId}`)) || subject.sub !== alice.sub)
      throw new errors.InvalidGrant('not addressed to this client');
    const granted = new Set(String(subject.scope).split(' '));
    if (scopes.some((scope) => IDENTITY[scope] && !granted.has(scope))) throw new errors.InvalidScope('identity scope not granted', ctx.oidc.params.scope);
    const act = subject.act ? { client_id: clientId, act: subject.act } : { client_id: clientId };
    await issueUserToken(ctx, scopes, { auth_time: subject.auth_time, amr: ['delegation'], act });
  },
  ['token', 'scope'],
);

const callback = provider.callback();
const server = http.createServer((request, response) => {
  if (request.url === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"status":"ok"}');
    return;
  }
  if (request.url?.startsWith('/connect/token')) request.url = '/token';
  else if (request.url?.startsWith('/connect/userinfo')) request.url = '/me';
  callback(request, response);
});
server.keepAliveTimeout = 5000;
server.listen(port, host, () => process.stdout.write(JSON.stringify({ listening: port, algorithm, server: 'oidc-provider' }) + '\n'));
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 1000).unref();
  });
}

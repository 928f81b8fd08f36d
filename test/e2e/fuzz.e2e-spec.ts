import fc from 'fast-check';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { connect } from 'node:net';
import { SigningKeyStore } from '../../src/tokens/keys/signing-key.store';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, postForm, request, requestToken, userAccessToken } from '../support/http';
import { demoPrivateJwk, JWT_BEARER, JWT_SPIFFE } from '../support/client-assertions';

/**
 * Property-based fuzzing of the running service: hostile form bodies, parameter names
 * and values, content types, Authorization headers and token shapes against every endpoint.
 * Whatever is sent: the status is below 500; every non-2xx answer is a JSON OAuth error with a
 * code from a fixed list and an RFC 6749 §5.2 description, no stack trace and no SQL; the service
 * still serves a valid request afterwards; stored data changes only as far as requests succeeded.
 *
 * Most cases go through Fastify's inject (the full app: hooks, parsers, guards, filters, database;
 * no socket), a sample through real sockets, and bytes fetch cannot send through raw `net` sockets.
 * Seeded: FUZZ_SEED=<n> reproduces a run, FUZZ_RUNS=<n> scales it (cases per property are
 * multiples of it). A failure prints fast-check's seed and path.
 */
const SEED = integerFromEnv('FUZZ_SEED', 20_251_105);
const RUNS = integerFromEnv('FUZZ_RUNS', 600);

const ERROR_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_token_type',
  'invalid_scope',
  'invalid_target',
  'invalid_token',
  'insufficient_scope',
]);
// RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E.
const DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;
const INTERNALS = /\bat [\w.<>]+ \(|node_modules|QueryFailedError|TypeError|ReferenceError|\bSELECT\b|\bINSERT\b|\bUPDATE\b|\bDELETE FROM\b|\bstack\b/;

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
// The fuzz authenticates as clients of its own, like the demo ones: stored data it could change is theirs.
const M2M = { id: uniqueName('fuzz-m2m'), secret: `m2m-${randomBytes(8).toString('hex')}`, grants: ['client_credentials'], scopes: ['api1', 'api2'] };
const FRONTEND = {
  id: uniqueName('fuzz-frontend'),
  secret: `frontend-${randomBytes(8).toString('hex')}`,
  grants: ['password', 'refresh_token'],
  scopes: ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'],
};
const API1 = {
  id: uniqueName('fuzz-api1'),
  secret: `api1-${randomBytes(8).toString('hex')}`,
  grants: ['delegation', TOKEN_EXCHANGE],
  scopes: ['openid', 'profile', 'role', 'api2'],
};
const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
// Allowed transaction tokens (docs/transaction-tokens.md), like the demo `gateway`.
const GATEWAY = {
  id: uniqueName('fuzz-gateway'),
  secret: `gateway-${randomBytes(8).toString('hex')}`,
  grants: [TOKEN_EXCHANGE],
  scopes: ['openid', 'api1', 'api2'],
};
const FUZZ_CLIENTS: readonly (readonly [string, string])[] = [M2M, FRONTEND, API1, GATEWAY].map(({ id, secret }) => [id, secret] as const);
const M2M_BASIC = `${M2M.id}:${M2M.secret}`;
const FORM = 'application/x-www-form-urlencoded';

function integerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number`);
  return Number(raw);
}

/** One request, printed short when fast-check reports it as a counterexample. */
class FuzzRequest {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body?: Buffer,
  ) {}

  [fc.toStringMethod](): string {
    const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text);
    const headers = Object.entries(this.headers).map(([name, value]) => `${name}: ${short(JSON.stringify(value))}`);
    return `${this.method} ${short(this.path)} {${headers.join(', ')}} body=${this.body ? short(JSON.stringify(this.body.toString('latin1'))) : '-'}`;
  }
}

interface FuzzResponse {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
}

// ---- what the invariants are -------------------------------------------------------------------

const statusCounts = new Map<number, number>();
let casesRun = 0;
let refreshTokensIssued = 0;
let revocationsAnswered200 = 0;
let clientAssertionsSent = 0;

function checkResponse(request: FuzzRequest, response: FuzzResponse): void {
  casesRun++;
  statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
  const fail = (why: string) => {
    throw new Error(`${why}: ${response.status} ${response.contentType} ${response.body.slice(0, 500)}`);
  };
  if (response.status >= 500) fail('status 500 or above');
  if (INTERNALS.test(response.body)) fail('the response shows internals');
  if (response.status >= 200 && response.status < 300) {
    if (request.path === '/connect/revocation') revocationsAnswered200++;
    if (request.path === '/connect/token' && response.body.includes('"refresh_token"')) refreshTokensIssued++;
    return;
  }
  if (!/^application\/json(;|$)/.test(response.contentType ?? '')) fail('an error without a JSON body');
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return fail('an error body that is not JSON');
  }
  const { error, error_description: description, ...rest } = (body ?? {}) as Record<string, unknown>;
  if (typeof error !== 'string' || !ERROR_CODES.has(error)) fail('an error code outside the RFC list');
  if (description !== undefined && (typeof description !== 'string' || !DESCRIPTION.test(description) || description.length > 256)) {
    fail('an error_description outside RFC 6749 §5.2');
  }
  if (Object.keys(rest).length > 0) fail('an error body with members besides error and error_description');
}

/**
 * Every table's rows as md5 digests, to compare before and after a batch of requests. Rows of
 * clients, users and refresh tokens are limited to those the fuzz can reach (the demo data and
 * its own clients), so that specs running beside it in other workers do not disturb the check.
 */
const REACHABLE_ROWS: Record<string, { where: string; values: unknown[] }> = {
  clients: { where: 'client_id = ANY($1)', values: [[...FUZZ_CLIENTS.map(([id]) => id), 'm2m', 'frontend', 'api1']] },
  client_secrets: { where: 'client_id = ANY($1)', values: [[...FUZZ_CLIENTS.map(([id]) => id), 'm2m', 'frontend', 'api1']] },
  users: { where: 'username = ANY($1)', values: [['alice', 'bob']] },
  refresh_tokens: { where: 'client_id = ANY($1)', values: [FUZZ_CLIENTS.map(([id]) => id)] },
};

async function snapshot(): Promise<Map<string, string[]>> {
  const tables = await sql<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const result = new Map<string, string[]>();
  for (const { name } of tables) {
    const reachable = REACHABLE_ROWS[name];
    const rows = await sql<{ digest: string }>(
      `SELECT md5(t::text) AS digest FROM "${name}" t ${reachable ? `WHERE ${reachable.where}` : ''} ORDER BY 1`,
      reachable?.values ?? [],
    );
    result.set(
      name,
      rows.map((row) => row.digest),
    );
  }
  return result;
}

/** Rows only removed or changed count as a change; rows added are reported per table. */
function compare(before: Map<string, string[]>, after: Map<string, string[]>): { removed: string[]; added: Map<string, number> } {
  const removed: string[] = [];
  const added = new Map<string, number>();
  for (const [table, rows] of after) {
    const old = new Map<string, number>();
    for (const digest of before.get(table) ?? []) old.set(digest, (old.get(digest) ?? 0) + 1);
    let fresh = 0;
    for (const digest of rows) {
      const left = old.get(digest) ?? 0;
      if (left > 0) old.set(digest, left - 1);
      else fresh++;
    }
    for (const [, left] of old) if (left > 0) removed.push(table);
    if (fresh > 0) added.set(table, fresh);
  }
  return { removed, added };
}

// ---- what is sent ------------------------------------------------------------------------------

const KNOWN_PARAMETERS = [
  'grant_type',
  'client_id',
  'client_secret',
  'scope',
  'username',
  'password',
  'token',
  'token_type_hint',
  'subject_token',
  'subject_token_type',
  'actor_token',
  'actor_token_type',
  'requested_token_type',
  'audience',
  'resource',
  'refresh_token',
  'access_token',
  'request_context',
  'request_details',
  'client_assertion',
  'client_assertion_type',
];
const HOSTILE_NAMES = [
  'a[b][c]',
  'a[]',
  'a[0]',
  'grant_type[]',
  'scope[0]',
  'client_id[]',
  '__proto__',
  '__proto__[admin]',
  'constructor',
  'constructor[prototype][admin]',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  '',
  '=',
  '%',
  '%zz',
  '%00',
  '\u0000',
  'grant_type\u0000',
  ' grant_type',
  'GRANT_TYPE',
  'a.b',
  '$where',
];
const KNOWN_VALUES = [
  'client_credentials',
  'password',
  'delegation',
  'refresh_token',
  TOKEN_EXCHANGE,
  'authorization_code',
  'implicit',
  '',
  ' ',
  'api1',
  'api2',
  'openid',
  'openid profile email role api1',
  'openid offline_access',
  'offline_access',
  'alice',
  'bob',
  M2M.id,
  FRONTEND.id,
  API1.id,
  M2M.secret,
  FRONTEND.secret,
  API1.secret,
  'm2m',
  'frontend',
  ACCESS_TOKEN_TYPE,
  'urn:ietf:params:oauth:token-type:jwt',
  'urn:ietf:params:oauth:token-type:refresh_token',
  'urn:ietf:params:oauth:token-type:id_token',
  'access_token',
  `${ISSUER}/resources`,
  'https://attacker.example',
  'api1 api1 api1',
  'openid\tprofile',
  'api1  api2',
  TXN_TOKEN_TYPE,
  ISSUER,
  '{"a":1}',
  '{"req_ip":"1.2.3.4"}',
  JWT_BEARER,
  JWT_SPIFFE,
  'batch',
  'reports',
  'ledger',
];
const HOSTILE_VALUES = [
  '\u0000',
  'a\u0000b',
  '%00',
  '\uD800',
  '\uDFFF',
  '\uFFFD',
  '\uFEFF',
  '\r\n',
  '\u202E',
  '"',
  '\\',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '{{7*7}}',
  'null',
  'undefined',
  '[]',
  '{}',
  'NaN',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
  '\u00e9',
  '\u{1F600}',
];
const LONG_16K = 'a'.repeat(16 * 1024 + 1);
const LONG_60K = 'b'.repeat(60 * 1024);
const LONG_1M = 'c'.repeat(1024 * 1024);

const SPECIAL_BODIES: readonly string[] = [
  Array.from({ length: 10_000 }, (_, index) => `${index.toString(36)}=`).join('&'),
  `grant_type=client_credentials&${Array.from({ length: 10_000 }, () => 'a=1').join('&')}`,
  `grant_type=client_credentials&${Array.from({ length: 10_000 }, (_, index) => `p${index.toString(36)}=`).join('&')}`,
  'a[b][c]=1&a[b][c]=2&grant_type=client_credentials',
  `${'a['.repeat(5000)}=1`,
  '__proto__[admin]=1&constructor[prototype][admin]=1&grant_type=client_credentials',
  '__proto__=1&__proto__=2&grant_type=client_credentials',
  'toString=1&valueOf=2&hasOwnProperty=3&grant_type=client_credentials',
  '&&&&',
  '=&=&=',
  '%',
  '%zz=%zz',
  '%=%',
  'grant_type=%E2%82',
  'grant_type=%C0%AF',
  'grant_type=%FF%FE',
  'grant_type=client_credentials%00',
  `token=${LONG_1M}`,
  `token=${'d'.repeat(64 * 1024 - 6)}`,
  '{"grant_type":"client_credentials"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '[1,2]',
  '"x"',
  '{"a":',
];

/** Header values as a peer can send them: visible ASCII, space, tab and obs-text (RFC 9110 §5.5). */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09)).map((code) => String.fromCharCode(code)),
    maxLength,
  });

const base64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Bytes of a form part: percent-encoded, raw, Latin-1 (invalid UTF-8), or with a broken escape. */
function encodePart(text: string, mode: number): Buffer {
  const utf8 = Buffer.from(text, 'utf8');
  // encodeURIComponent refuses lone surrogates; Buffer has already replaced them with U+FFFD.
  const percent = () => encodeURIComponent(utf8.toString('utf8'));
  switch (mode % 5) {
    case 0:
    case 1:
      return Buffer.from(percent());
    case 2:
      return utf8;
    case 3:
      return Buffer.from(text, 'latin1');
    default: {
      const encoded = percent();
      const broken = ['%', '%z', '%zz', '%E2%82', '%C0%AF', '%FF', '%ED%A0%80'][mode % 7];
      const at = mode % (encoded.length + 1);
      return Buffer.from(`${encoded.slice(0, at)}${broken}${encoded.slice(at)}`);
    }
  }
}

function formBody(pairs: readonly (readonly [string, string, number])[]): Buffer {
  return Buffer.concat(
    pairs.flatMap(([name, value, mode], index) => [
      ...(index ? [Buffer.from('&')] : []),
      encodePart(name, mode),
      Buffer.from('='),
      encodePart(value, mode >> 3),
    ]),
  );
}

describe('fuzzing the running service', () => {
  let server: TestServer;
  let inject: (request: FuzzRequest) => Promise<FuzzResponse>;
  let port: number;
  let endpoints: { userinfo?: string; introspection?: string; revocation?: string; grants: string[] };
  let before: Map<string, string[]>;
  let realTokens: string[];
  let signOurs: (header: unknown, claims: unknown) => string;
  let kid: string;
  const sampled: FuzzRequest[] = [];
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startTestServer();
    const fastify = server.app.getHttpAdapter().getInstance();
    inject = async ({ method, path, headers, body }) => {
      const response = await fastify.inject({ method: method as 'GET', url: path, headers, ...(body ? { payload: body } : {}) });
      return { status: response.statusCode, contentType: response.headers['content-type'] as string | undefined, body: response.body };
    };
    port = Number(new URL(server.url).port);
    const discovery = (await request(`${server.url}/.well-known/openid-configuration`)).body;
    const pathOf = (url: unknown) => (typeof url === 'string' ? new URL(url).pathname : undefined);
    endpoints = {
      userinfo: pathOf(discovery.userinfo_endpoint),
      introspection: pathOf(discovery.introspection_endpoint),
      revocation: pathOf(discovery.revocation_endpoint),
      grants: discovery.grant_types_supported,
    };
    // Every endpoint and grant is fuzzed: one missing from discovery is a failure, not a skipped property.
    expect(endpoints).toEqual({
      userinfo: '/connect/userinfo',
      introspection: '/connect/introspect',
      revocation: '/connect/revocation',
      grants: expect.arrayContaining(['client_credentials', 'password', 'refresh_token', 'delegation', TOKEN_EXCHANGE]),
    });
    const key = server.app.get(SigningKeyStore).signingKey();
    kid = key.kid;
    signOurs = (header, claims) => {
      const input = `${base64url(header)}.${base64url(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
    };
    const alice = await userAccessToken(server.url, 'alice', 'openid profile email role api1');
    const m2m = (await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' })).body.access_token;
    const delegated = (await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: alice, scope: 'openid api2' })).body
      .access_token;
    const txnToken = (
      await requestToken(server.url, 'gateway', 'gateway-secret', {
        grant_type: TOKEN_EXCHANGE,
        requested_token_type: TXN_TOKEN_TYPE,
        subject_token: alice,
        subject_token_type: ACCESS_TOKEN_TYPE,
      })
    ).body.access_token;
    realTokens = [alice, m2m, delegated, txnToken];
    for (const client of [M2M, FRONTEND, API1, GATEWAY])
      await insertClient({ clientId: client.id, secrets: [{ secret: client.secret }], grantTypes: client.grants, scopes: client.scopes });
    await sql('UPDATE clients SET transaction_tokens = true WHERE client_id = $1', [GATEWAY.id]);
    console.log(
      `fuzz seed ${SEED} (FUZZ_SEED), runs ${RUNS} (FUZZ_RUNS); endpoints: token, ${[endpoints.userinfo, endpoints.introspection, endpoints.revocation].filter(Boolean).join(', ')}; grants: ${endpoints.grants.join(', ')}`,
    );
    before = await snapshot();
  });

  afterAll(async () => {
    const statuses = [...statusCounts]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(`fuzz: ${casesRun} cases checked (seed ${SEED}); statuses ${statuses}`);
    await server?.close();
  });

  // ---- arbitraries that need the running service ----

  const timestamp = () => fc.constantFrom(now, now - 30, now - 61, now - 3600, now + 30, now + 61, now + 86_400, 0, -1, 1e20, 1.5, Number.MAX_SAFE_INTEGER);
  const actor = fc.letrec((tie) => ({
    act: fc.oneof(
      { depthSize: 'small' },
      fc.record({ client_id: fc.constantFrom('api1', 'x', '') }),
      fc.record({ client_id: fc.constantFrom('api1', 'x'), act: tie('act') }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  })).act;

  const jwtLike = (): fc.Arbitrary<string> => {
    const header = fc.record(
      {
        alg: fc.constantFrom('RS256', 'RS256', 'none', 'None', 'HS256', 'HS512', 'ES256', 'PS256', 'RS512', ''),
        typ: fc.constantFrom('at+jwt', 'at+jwt', 'JWT', 'application/at+jwt', 'AT+JWT', ''),
        kid: fc.constantFrom(kid, kid, 'unknown', ''),
        crit: fc.constant(['exp']),
        jku: fc.constant('https://attacker.example/jwks'),
        jwk: fc.constant({ kty: 'oct', k: 'AAAA' }),
        zip: fc.constant('DEF'),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['alg', 'typ', 'kid'] },
    );
    const claims = fc.record(
      {
        iss: fc.constantFrom(ISSUER, ISSUER, 'https://attacker.example', ''),
        sub: fc.oneof(
          fc.constantFrom('1', '2', 'unknown-user', '', '\u0000', '\uD800'),
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        aud: fc.oneof(fc.constantFrom('api1', 'api2', ['api1', 'api2'], [], [1]), fc.jsonValue({ maxDepth: 1 })),
        client_id: fc.oneof(fc.constantFrom('api1', 'frontend', 'm2m', M2M.id, FRONTEND.id, API1.id, 'unknown'), fc.jsonValue({ maxDepth: 1 })),
        scope: fc.oneof(
          fc.constantFrom('openid', 'openid profile email role api1', 'api1', 'api2', '', 'openid\u0000', 'offline_access'),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        iat: timestamp(),
        nbf: timestamp(),
        exp: fc.oneof(timestamp(), fc.constantFrom(now + 600, now + 600)),
        jti: fc.oneof(fc.string({ maxLength: 16 }), fc.jsonValue({ maxDepth: 1 })),
        auth_time: fc.oneof(timestamp(), fc.string({ maxLength: 4 })),
        amr: fc.oneof(fc.constant(['pwd']), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), fc.jsonValue({ maxDepth: 1 })),
        act: actor,
      },
      { requiredKeys: [] },
    );
    const mutations = ['flip', 'truncate', 'append', 'drop-signature', 'swap-payload', 'extra-segment', 'lowercase'] as const;
    return fc.oneof(
      { weight: 4, arbitrary: fc.tuple(header, claims).map(([h, c]) => signOurs(h, c)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(header, fc.oneof(claims, fc.jsonValue({ maxDepth: 2 })), fc.string({ unit: 'binary', maxLength: 20 }))
          .map(([h, c, signature]) => `${base64url(h)}.${base64url(c)}.${base64url(signature)}`),
      },
      {
        weight: 3,
        arbitrary: fc.tuple(fc.constantFrom(...realTokens), fc.nat(), fc.constantFrom(...mutations)).map(([token, at, mutation]) => {
          const [h, p, s] = token.split('.');
          const index = at % token.length;
          switch (mutation) {
            case 'flip':
              return `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
            case 'truncate':
              return token.slice(0, index);
            case 'append':
              return `${token}${'A'.repeat((at % 7) + 1)}`;
            case 'drop-signature':
              return `${h}.${p}.`;
            case 'swap-payload':
              return `${h}.${realTokens[at % realTokens.length].split('.')[1]}.${s}`;
            case 'extra-segment':
              return `${token}.${s}`;
            default:
              return token.toLowerCase();
          }
        }),
      },
      { weight: 1, arbitrary: fc.array(fc.base64String({ maxLength: 24 }), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('.')) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('', '.', '..', '...', '....', 'a.b.c', 'e30.e30.', 'e30.e30.e30', 'eyJ.eyJ.eyJ', 'W10.W10.', 'bnVsbA.bnVsbA.', LONG_16K),
      },
    );
  };

  const parameterName = () =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...KNOWN_PARAMETERS) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NAMES) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
    );

  /** A known value with one hostile character put somewhere in it: what gets furthest in. */
  const tainted = (values: readonly string[]) =>
    fc
      .tuple(fc.constantFrom(...values), fc.constantFrom('\u0000', '\u0001', '\u001f', '\u007f', '\uD800', '\uFFFF', '%', '\\', '"', "'"), fc.nat())
      .map(([value, char, at]) => `${value.slice(0, at % (value.length + 1))}${char}${value.slice(at % (value.length + 1))}`);

  const parameterValue = () =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...KNOWN_VALUES) },
      { weight: 2, arbitrary: tainted(KNOWN_VALUES) },
      { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 32 }) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_VALUES) },
      { weight: 3, arbitrary: jwtLike() },
      { weight: 1, arbitrary: fc.constantFrom(LONG_16K, LONG_60K, LONG_1M) },
    );

  const pair = (name = parameterName()) => fc.tuple(name, parameterValue(), fc.nat({ max: 255 }));

  const body = () =>
    fc.oneof(
      { weight: 12, arbitrary: fc.array(pair(), { maxLength: 8 }).map(formBody) },
      {
        // client_secret_post, the client id and secret as known, tainted or random, among other parameters.
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom(...FUZZ_CLIENTS), fc.nat({ max: 3 }), tainted(FUZZ_CLIENTS.flat()), fc.array(pair(), { maxLength: 5 }))
          .map(([[id, secret], which, taint, rest]) =>
            formBody([['client_id', which === 1 ? taint : id, 0], ['client_secret', which === 2 ? taint : secret, 0], ...rest]),
          ),
      },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 96 }).map((bytes) => Buffer.from(bytes)) },
      { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_BODIES).map((text) => Buffer.from(text)) },
    );

  const contentType = () =>
    fc.oneof(
      { weight: 10, arbitrary: fc.constant(FORM) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'application/x-www-form-urlencoded; charset=utf-8',
          'APPLICATION/X-WWW-FORM-URLENCODED',
          'application/x-www-form-urlencoded; charset=iso-8859-1',
          'application/x-www-form-urlencoded;;;',
          'application/x-www-form-urlencoded, application/json',
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'multipart/form-data; boundary=x',
          'multipart/form-data',
          'application/octet-stream',
          'application/xml',
          '*/*',
          '',
          ' ',
        ),
      },
      { weight: 1, arbitrary: headerText(40) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );

  const basicOf = (raw: Buffer | string) => `Basic ${Buffer.from(raw).toString('base64')}`;
  const authorization = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 4, arbitrary: fc.constantFrom(...FUZZ_CLIENTS).map(([id, secret]) => basic(id, secret)) },
      {
        weight: 2,
        arbitrary: fc.tuple(fc.constantFrom(...FUZZ_CLIENTS), fc.string({ unit: 'binary', maxLength: 20 })).map(([[id], secret]) => basic(id, secret)),
      },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 48 }).map((bytes) => basicOf(Buffer.from(bytes))) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(basicOf) },
      { weight: 2, arbitrary: headerText(60).map((text) => `Basic ${text}`) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'Basic',
          'Basic ',
          `basic ${Buffer.from(M2M_BASIC).toString('base64')}`,
          `BASIC   ${Buffer.from(M2M_BASIC).toString('base64')}`,
          basicOf(M2M.id),
          basicOf(`:${M2M.secret}`),
          basicOf(`${M2M.id}:`),
          `${basicOf(M2M_BASIC)}=`,
          `${basicOf(M2M_BASIC)}==`,
          basicOf('%zz:x'),
          basicOf(`${M2M.id}%00:${M2M.secret}`),
          basicOf(`${M2M.id}\u0000:x`),
          basicOf(Buffer.from([0xff, 0xfe, 0x3a, 0xc0])),
          `Basic ${'A'.repeat(100 * 1024)}`,
          `Bearer ${'a'.repeat(100 * 1024)}`,
          'Bearer',
          'Bearer ',
          'Digest username="m2m", realm="x", nonce="y"',
          'Negotiate YII=',
          'Token abc',
          'Basic=abc',
          ' ',
          ',',
          `${basicOf(M2M_BASIC)}, ${basicOf(`${API1.id}:${API1.secret}`)}`,
          `Basic ${Buffer.from(M2M_BASIC).toString('base64url')}`,
        ),
      },
      { weight: 2, arbitrary: jwtLike().map((token) => `Bearer ${token}`) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Foo', 'DPoP', 'MAC'), headerText(40))
          .map(([scheme, value]) => `${scheme} ${value}`),
      },
    );

  function requestOf(method: string, path: string, headers: Record<string, string | undefined>, payload?: Buffer): FuzzRequest {
    const defined = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return new FuzzRequest(method, path, defined, payload);
  }

  /** Runs a property over inject, keeps a few cases for the socket sample, checks the service still works. */
  async function fuzz(name: string, arbitrary: fc.Arbitrary<FuzzRequest>, numRuns: number, offset: number): Promise<void> {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(arbitrary, async (fuzzRequest) => {
        if (index++ % 10 === 0 && sampled.length < 300) sampled.push(fuzzRequest);
        checkResponse(fuzzRequest, await inject(fuzzRequest));
      }),
      { seed: SEED + offset, numRuns },
    );
    await expectStillServing();
    console.log(`fuzz ${name}: ${numRuns} cases`);
  }

  async function expectStillServing(): Promise<void> {
    const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
    expect(response.status).toBe(200);
    expect(jwtPayload(response.body.access_token)).toMatchObject({ client_id: 'm2m', iss: ISSUER });
  }

  it('POST /connect/token: any body, content type and Authorization header', async () => {
    const arbitrary = fc
      .tuple(body(), contentType(), authorization())
      .map(([payload, type, auth]) => requestOf('POST', '/connect/token', { 'content-type': type, authorization: auth }, payload));
    await fuzz('token endpoint, free-form', arbitrary, RUNS * 3, 1);
  });

  it('POST /connect/token: every grant with its own client and hostile parameters and tokens', async () => {
    const grants = [
      { weight: 3, clientId: M2M.id, secret: M2M.secret, scopes: M2M.scopes, grantType: 'client_credentials', parameters: ['scope'] },
      {
        weight: 2,
        clientId: FRONTEND.id,
        secret: FRONTEND.secret,
        scopes: FRONTEND.scopes,
        grantType: 'password',
        parameters: ['username', 'password', 'scope'],
      },
      {
        weight: 2,
        clientId: FRONTEND.id,
        secret: FRONTEND.secret,
        scopes: FRONTEND.scopes,
        grantType: 'refresh_token',
        parameters: ['refresh_token', 'scope'],
      },
      { weight: 5, clientId: API1.id, secret: API1.secret, scopes: API1.scopes, grantType: 'delegation', parameters: ['token', 'scope'] },
      {
        weight: 5,
        clientId: API1.id,
        secret: API1.secret,
        scopes: API1.scopes,
        grantType: TOKEN_EXCHANGE,
        parameters: ['subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'requested_token_type', 'audience', 'resource', 'scope'],
      },
      {
        weight: 5,
        clientId: GATEWAY.id,
        secret: GATEWAY.secret,
        scopes: GATEWAY.scopes,
        grantType: TOKEN_EXCHANGE,
        parameters: ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'scope', 'request_context', 'request_details'],
      },
    ].filter(({ grantType }) => endpoints.grants.includes(grantType));
    const tokenParameters = new Set(['token', 'subject_token', 'actor_token', 'refresh_token']);
    // Values that get past the earlier checks (scope, presence) often enough to reach the grant's own.
    const valueFor = (name: string, scopes: readonly string[]): fc.Arbitrary<string> => {
      if (tokenParameters.has(name)) return fc.oneof({ weight: 4, arbitrary: jwtLike() }, { weight: 1, arbitrary: parameterValue() });
      if (name === 'scope')
        return fc.oneof({ weight: 3, arbitrary: fc.subarray([...scopes]).map((names) => names.join(' ')) }, { weight: 1, arbitrary: parameterValue() });
      if (name === 'username' || name === 'password') return fc.oneof(fc.constantFrom('alice', 'bob'), tainted(['alice', 'bob']), parameterValue());
      if (name === 'requested_token_type' || name === 'subject_token_type') {
        return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(TXN_TOKEN_TYPE, ACCESS_TOKEN_TYPE) }, { weight: 1, arbitrary: parameterValue() });
      }
      if (name === 'request_context' || name === 'request_details') {
        // Objects around the 4 KiB bound, any JSON value, and broken JSON.
        return fc.oneof(
          { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ value })) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)) },
          { weight: 1, arbitrary: fc.integer({ min: 4070, max: 4110 }).map((size) => JSON.stringify({ pad: 'x'.repeat(size - 10) })) },
          { weight: 1, arbitrary: parameterValue() },
        );
      }
      return parameterValue();
    };
    const arbitrary = fc
      .oneof(...grants.map((grant) => ({ weight: grant.weight, arbitrary: fc.constant(grant) })))
      .chain((grant) =>
        fc.tuple(
          fc.constant(grant),
          fc.array(
            fc
              .constantFrom(...grant.parameters)
              .chain((name) =>
                fc
                  .tuple(fc.constant(name), valueFor(name, grant.scopes), fc.nat({ max: 255 }))
                  .map(([n, value, mode]) => [n, value, mode % 8 < 6 ? 0 : mode] as const),
              ),
            { maxLength: grant.parameters.length + 1 },
          ),
          fc.array(pair(), { maxLength: 2 }),
          fc.boolean(),
          fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: tainted([grant.clientId]) }),
        ),
      )
      .map(([grant, parameters, extra, postAuthentication, taintedId]) => {
        const credentials: [string, string, number][] = postAuthentication
          ? [
              ['client_id', taintedId ?? grant.clientId, 0],
              ['client_secret', grant.secret, 0],
            ]
          : [];
        const payload = formBody([['grant_type', grant.grantType, 0], ...credentials, ...parameters, ...extra]);
        return requestOf(
          'POST',
          '/connect/token',
          { 'content-type': FORM, authorization: postAuthentication ? undefined : basic(grant.clientId, grant.secret) },
          payload,
        );
      });
    await fuzz('token endpoint, per grant', arbitrary, RUNS * 3, 2);
  });

  it('/connect/userinfo: any method, Authorization header and body', async () => {
    if (!endpoints.userinfo) return console.log('no userinfo_endpoint advertised: skipped');
    const path = endpoints.userinfo;
    const arbitrary = fc
      .tuple(
        fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.oneof({ weight: 3, arbitrary: jwtLike().map((token) => `Bearer ${token}`) }, { weight: 2, arbitrary: authorization() }),
        fc.oneof(
          body(),
          fc.tuple(jwtLike(), fc.array(pair(), { maxLength: 2 })).map(([token, extra]) => formBody([['access_token', token, 0], ...extra])),
        ),
        contentType(),
        fc.constantFrom('', '?access_token=abc.def.ghi', '?a[b]=1&__proto__=x', '?%zz', `?access_token=${realTokens[0]}`),
      )
      .map(([method, auth, payload, type, query]) =>
        requestOf(
          method,
          `${path}${query}`,
          { authorization: auth, 'content-type': method === 'GET' ? undefined : type },
          method === 'GET' ? undefined : payload,
        ),
      );
    await fuzz('userinfo', arbitrary, RUNS * 2, 3);
  });

  it('/connect/introspect and /connect/revocation: any client authentication, token and hint', async () => {
    const paths = [endpoints.introspection, endpoints.revocation].filter((path): path is string => path !== undefined);
    if (paths.length === 0) return console.log('no introspection or revocation endpoint advertised: skipped');
    const arbitrary = fc
      .tuple(
        fc.constantFrom(...paths),
        authorization(),
        fc.oneof(jwtLike(), parameterValue()),
        fc.constantFrom(undefined, 'access_token', 'refresh_token', 'id_token', '', '\u0000'),
        fc.array(pair(), { maxLength: 3 }),
        fc.oneof({ weight: 5, arbitrary: fc.constant(FORM) }, { weight: 1, arbitrary: contentType() }),
      )
      .map(([path, auth, token, hint, extra, type]) =>
        requestOf(
          'POST',
          path,
          { authorization: auth, 'content-type': type },
          formBody([['token', token, 0], ...(hint === undefined ? [] : [['token_type_hint', hint, 0] as const]), ...extra]),
        ),
      );
    await fuzz('introspection and revocation', arbitrary, RUNS * 2, 4);
  });

  it('client assertions (private_key_jwt, Kubernetes, SPIFFE) at the token, introspection and revocation endpoints', async () => {
    const keys = {
      batch: createPrivateKey({ key: demoPrivateJwk('batch'), format: 'jwk' }),
      workloads: createPrivateKey({ key: demoPrivateJwk('demo-workloads'), format: 'jwk' }),
    };
    const signAs = (key: keyof typeof keys, header: unknown, claims: unknown) => {
      const input = `${base64url(header)}.${base64url(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key: keys[key], dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    };
    const header = fc.record(
      {
        alg: fc.constantFrom('ES256', 'ES256', 'ES256', 'none', 'HS256', 'RS256', 'EdDSA', ''),
        kid: fc.constantFrom('batch-1', 'demo-workloads-1', 'unknown', '', 'x'.repeat(300)),
        typ: fc.constantFrom('JWT', 'at+jwt', ''),
        jku: fc.constant('https://attacker.example/jwks'),
        x5u: fc.constant('http://169.254.169.254/latest'),
        jwk: fc.constant({ kty: 'oct', k: 'AAAA' }),
      },
      { requiredKeys: ['alg', 'kid'] },
    );
    const subjects = [
      'batch',
      'reports',
      'ledger',
      'm2m',
      'system:serviceaccount:default:reports',
      'system:serviceaccount:default:other',
      'spiffe://demo.example/ns/default/sa/ledger',
      'spiffe://other.example/ns/default/sa/ledger',
      'spiffe://demo.example',
      '',
    ];
    const claims = fc.record(
      {
        iss: fc.oneof(
          fc.constantFrom('batch', 'https://kubernetes.demo.example', 'https://kubernetes.evil.example', 'spiffe://demo.example', ''),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        sub: fc.oneof(fc.constantFrom(...subjects), fc.jsonValue({ maxDepth: 1 })),
        aud: fc.oneof(
          fc.constantFrom(ISSUER, [ISSUER], `${ISSUER}/connect/token`, `${ISSUER}/connect/introspect`, 'https://attacker.example', []),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        iat: timestamp(),
        nbf: timestamp(),
        exp: fc.oneof(timestamp(), fc.constantFrom(now + 120, now + 120, now + 3600)),
        jti: fc.oneof(fc.string({ maxLength: 16 }), fc.constantFrom('x'.repeat(300), 'replayed'), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    );
    const assertion = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.tuple(fc.constantFrom('batch', 'workloads') as fc.Arbitrary<keyof typeof keys>, header, claims).map(([key, h, c]) => signAs(key, h, c)),
      },
      { weight: 2, arbitrary: jwtLike() },
      { weight: 1, arbitrary: parameterValue() },
    );
    const paths = ['/connect/token', endpoints.introspection, endpoints.revocation].filter((path): path is string => path !== undefined);
    const arbitrary = fc
      .tuple(
        fc.constantFrom(...paths),
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(JWT_BEARER, JWT_SPIFFE) },
          { weight: 1, arbitrary: parameterValue() },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
        fc.oneof({ weight: 4, arbitrary: assertion }, { weight: 1, arbitrary: fc.constant(undefined) }),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: fc.constantFrom('batch', 'reports', 'ledger', 'm2m') },
          { weight: 1, arbitrary: parameterValue() },
        ),
        fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: authorization() }),
        fc.array(pair(), { maxLength: 2 }),
      )
      .map(([path, type, jwt, clientId, auth, extra]) => {
        if (jwt !== undefined) clientAssertionsSent++;
        const pairs: [string, string, number][] = [
          ['grant_type', 'client_credentials', 0],
          ['token', 'x', 0],
        ];
        if (type !== undefined) pairs.push(['client_assertion_type', type, 0]);
        if (jwt !== undefined) pairs.push(['client_assertion', jwt, 0]);
        if (clientId !== undefined) pairs.push(['client_id', clientId, 0]);
        return requestOf('POST', path, { authorization: auth, 'content-type': FORM }, formBody([...pairs, ...extra]));
      });
    await fuzz('client assertions', arbitrary, RUNS * 2, 6);
  });

  it('any method on any path, with hostile query strings', async () => {
    const arbitrary = fc
      .tuple(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH'),
        fc.oneof(
          fc.constantFrom(
            '/connect/token',
            '/connect/userinfo',
            '/connect/introspect',
            '/connect/revocation',
            '/.well-known/openid-configuration',
            '/.well-known/openid-configuration/jwks',
            '/nowhere',
            '/connect/',
            '//connect/token',
            '/connect/token/',
            '/CONNECT/TOKEN',
            '/connect/token%00',
            '/%2e%2e/%2e%2e/etc/passwd',
            `/${'a'.repeat(4000)}`,
          ),
          fc.webPath().map((path) => (path.startsWith('/') ? path : `/${path}`)),
        ),
        fc.constantFrom('', '?', '?a[b][c]=1', '?__proto__[x]=1', '?%zz', '?token=secret&client_secret=x', `?${'a=1&'.repeat(2000)}`),
        authorization(),
      )
      .map(([method, path, query, auth]) => requestOf(method, `${path}${query}`, { authorization: auth }));
    await fuzz('any route', arbitrary, RUNS, 5);
  });

  it('over real sockets: a sample of the cases above, and bytes fetch cannot send', async () => {
    const rawCases: [string, Buffer][] = [
      ['a control character in a header', Buffer.from('POST /connect/token HTTP/1.1\r\nHost: x\r\nX-Evil: a\u0001b\r\nContent-Length: 0\r\n\r\n', 'latin1')],
      ['a NUL in the request line', Buffer.from('POST /connect/t\u0000oken HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1')],
      ['garbage instead of a request line', Buffer.from('GARBAGE\r\n\r\n')],
      ['an unknown HTTP version', Buffer.from('POST /connect/token HTTP/9.9\r\nHost: x\r\n\r\n')],
      [
        'Content-Length and Transfer-Encoding both',
        Buffer.from('POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
      ],
      [
        'a broken chunk size',
        Buffer.from(`POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Type: ${FORM}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`),
      ],
      ['a negative Content-Length', Buffer.from('POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n')],
      [
        'two Content-Length headers that disagree',
        Buffer.from(`POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Type: ${FORM}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`),
      ],
      ['a header without a colon', Buffer.from('POST /connect/token HTTP/1.1\r\nHost: x\r\nAuthorization Basic abc\r\n\r\n')],
      ['headers over 16 KiB', Buffer.from(`GET /connect/userinfo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(17 * 1024)}\r\n\r\n`)],
      [
        'obs-fold',
        Buffer.from(
          `POST /connect/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic\r\n ${Buffer.from(M2M_BASIC).toString('base64')}\r\nContent-Length: 0\r\n\r\n`,
        ),
      ],
      [
        'invalid UTF-8 in a header value',
        Buffer.concat([
          Buffer.from('POST /connect/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic '),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from(`\r\nContent-Type: ${FORM}\r\nContent-Length: 0\r\n\r\n`),
        ]),
      ],
      [
        'invalid UTF-8 in the body',
        Buffer.concat([
          Buffer.from(
            `POST /connect/token HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(M2M.id, M2M.secret)}\r\nContent-Type: ${FORM}\r\nContent-Length: 16\r\n\r\ngrant_type=`,
          ),
          Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0x80]),
        ]),
      ],
    ];
    let sent = 0;
    for (const [name, bytes] of rawCases) {
      try {
        checkResponse(new FuzzRequest('RAW', name, {}), await rawExchange(port, bytes));
      } catch (error) {
        throw new Error(`raw case "${name}": ${(error as Error).message}`, { cause: error });
      }
      sent++;
    }
    for (const fuzzRequest of sampled) {
      try {
        checkResponse(fuzzRequest, await rawExchange(port, toHttpBytes(fuzzRequest)));
      } catch (error) {
        throw new Error(`socket sample ${fc.stringify(fuzzRequest)}: ${(error as Error).message}`, { cause: error });
      }
      sent++;
    }
    await expectStillServing();
    console.log(`fuzz over sockets: ${sent} requests (${rawCases.length} raw byte cases, ${sampled.length} sampled)`);
    expect(sampled.length).toBeGreaterThan(0);
  });

  it('changes stored data only as far as requests succeeded', async () => {
    const { removed, added } = compare(before, await snapshot());
    expect(removed).toEqual([]);
    // A refresh token is one row; a revocation that answered 200 may add one deny-list row.
    const explained = new Map([
      ['refresh_tokens', refreshTokensIssued],
      ['revoked_access_tokens', revocationsAnswered200],
      // A private_key_jwt assertion's jti is remembered once it verifies, whatever the grant then decides.
      ['client_assertion_jtis', clientAssertionsSent],
    ]);
    for (const [table, count] of added) {
      expect({ table, count: count <= (explained.get(table) ?? 0) ? 'explained' : count }).toEqual({ table, count: 'explained' });
    }
    expect(added.get('refresh_tokens') ?? 0).toBe(refreshTokensIssued);
    console.log(
      `fuzz data check: rows added ${JSON.stringify(Object.fromEntries(added))}, refresh tokens issued ${refreshTokensIssued}, none changed or removed`,
    );
  });

  it('still serves every endpoint with valid requests at the end', async () => {
    await expectStillServing();
    const alice = await userAccessToken(server.url, 'alice', 'openid profile');
    expect((await request(`${server.url}${endpoints.userinfo}`, { headers: { authorization: `Bearer ${alice}` } })).body).toMatchObject({ sub: '1' });
    expect(
      (await postForm(`${server.url}${endpoints.introspection}`, { token: alice }, { authorization: basic('frontend', 'frontend-secret') })).body,
    ).toMatchObject({ active: true });
  });
});

/** The bytes of a request as an HTTP/1.1 client would write them, closing the connection after. */
function toHttpBytes({ method, path, headers, body }: FuzzRequest): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]);
}

/** Writes raw bytes to the server and reads one response until the server closes or it is complete. */
function rawExchange(port: number, bytes: Buffer): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => finish(new Error('no response within 10 s')), 10_000);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed) resolve(parsed);
      else reject(error ?? new Error(`no complete HTTP response: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (parseResponse(Buffer.concat(chunks))) finish();
    });
    socket.on('end', () => finish());
    socket.on('error', (error) => finish(error));
    // No half-close: Node's server aborts a request whose client ended its side (httpAllowHalfOpen is off).
    socket.on('connect', () => socket.write(bytes));
  });
}

function parseResponse(raw: Buffer): FuzzResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers = new Map(headerLines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  let body = raw.subarray(end + 4);
  if (headers.get('transfer-encoding') === 'chunked') {
    const decoded: Buffer[] = [];
    for (let at = 0; ;) {
      const lineEnd = body.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(body.subarray(at, lineEnd).toString(), 16);
      if (size === 0) break;
      if (lineEnd + 2 + size > body.length) return undefined;
      decoded.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 4 + size;
    }
    body = Buffer.concat(decoded);
  } else {
    const length = Number(headers.get('content-length') ?? 0);
    if (body.length < length) return undefined;
    body = body.subarray(0, length);
  }
  return { status, contentType: headers.get('content-type'), body: body.toString('utf8') };
}

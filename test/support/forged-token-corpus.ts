import { constants, createHmac, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * Forged access tokens, built by hand so that no library refuses to build what we mean
 * to forge. The unit spec of AccessTokenValidator and the end-to-end corpus spec share it. Each
 * forgery starts from a token the service would accept (`control`) and breaks one thing; those
 * that must get past the signature check are signed with the service's own key, so that only the
 * property under test is wrong.
 */
export interface ServiceKey {
  readonly kid: string;
  readonly algorithm: string;
  readonly privateKey: KeyObject;
}

export interface ForgedToken {
  readonly name: string;
  readonly token: string;
}

export interface ForgedTokenCorpus {
  /** The unbroken token every forgery starts from: it must be accepted. */
  readonly control: string;
  readonly forgeries: readonly ForgedToken[];
  /** The forgery longer than 16 KiB (also in `forgeries`): a form parameter that long is refused before validation. */
  readonly oversized: string;
}

type Json = Record<string, unknown>;

/** What the corpus starts from: a real token's claims, or a made-up set with the same members. */
export interface CorpusInput {
  readonly key: ServiceKey;
  readonly issuer: string;
  readonly claims: Json;
}

const MAX_ACTOR_DEPTH = 8;
const segment = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const rawSegment = (text: string) => Buffer.from(text).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** A JWS signature as RFC 7518 §3 writes it for the asymmetric algorithms the service may use. */
function signature(algorithm: string, input: string, key: KeyObject): string {
  const data = Buffer.from(input);
  if (algorithm === 'ES256') return sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  if (algorithm === 'PS256') return sign('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64url');
  return sign('sha256', data, key).toString('base64url');
}

/** Signs encoded segments with the service's key (or another one under the service's name). */
function signedSegments(key: ServiceKey, header: string, payload: string, signingKey = key.privateKey): string {
  const input = `${header}.${payload}`;
  return `${input}.${signature(key.algorithm, input, signingKey)}`;
}

function hmacToken(header: Json, payload: Json, secret: Buffer | string, bits: 256 | 384 | 512): string {
  const input = `${segment(header)}.${segment(payload)}`;
  return `${input}.${createHmac(`sha${bits}`, secret).update(input).digest('base64url')}`;
}

function actorChain(depth: number): Json {
  let act: Json | undefined;
  for (let level = depth; level >= 1; level--) act = { client_id: `api-${level}`, ...(act ? { act } : {}) };
  return act as Json;
}

/** Builds the corpus from the service's signing key and a set of claims the service would accept. */
export function forgedTokenCorpus({ key, issuer, claims }: CorpusInput): ForgedTokenCorpus {
  const header: Json = { alg: key.algorithm, typ: 'at+jwt', kid: key.kid };
  const { kid: _kid, ...headerWithoutKid } = header;
  const service = (h: Json, p: unknown) => signedSegments(key, segment(h), segment(p));
  const serviceRaw = (h: string, p: string) => signedSegments(key, rawSegment(h), rawSegment(p));
  const control = service(header, claims);
  const realSignature = control.split('.')[2];
  const attacker = key.algorithm === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const attackerJwk = attacker.publicKey.export({ format: 'jwk' });
  const byAttacker = (h: Json, p: Json = claims) => signedSegments(key, segment(h), segment(p), attacker.privateKey);

  const forgeries: ForgedToken[] = [];
  const add = (name: string, token: string) => forgeries.push({ name, token });

  // alg none, in any casing, with no signature, the real one, or a made-up one (RFC 8725 §2.1).
  for (const alg of ['none', 'None', 'NONE', 'nOnE', 'NoNe']) add(`alg "${alg}", no signature`, `${segment({ ...header, alg })}.${segment(claims)}.`);
  add('alg "none" keeping the real signature', `${segment({ ...header, alg: 'none' })}.${segment(claims)}.${realSignature}`);
  add('no alg at all', `${segment(headerWithoutKid)}.${segment(claims)}.`);

  // HMAC keyed with our public key in every form an attacker could fetch it in (RFC 8725 §2.1).
  const publicKey = createPublicKey(key.privateKey);
  const publishedJwk = { ...publicKey.export({ format: 'jwk' }), kid: key.kid, alg: key.algorithm, use: 'sig' };
  const publicKeyForms: [string, Buffer | string][] = [
    ['SPKI PEM', publicKey.export({ format: 'pem', type: 'spki' }).toString()],
    ['SPKI PEM without the final newline', publicKey.export({ format: 'pem', type: 'spki' }).toString().trim()],
    ['SPKI DER', publicKey.export({ format: 'der', type: 'spki' })],
    ['published JWK JSON', JSON.stringify(publishedJwk)],
    ['bare JWK JSON', JSON.stringify(publicKey.export({ format: 'jwk' }))],
  ];
  if (key.algorithm !== 'ES256') publicKeyForms.push(['PKCS#1 PEM', publicKey.export({ format: 'pem', type: 'pkcs1' }).toString()]);
  for (const bits of [256, 384, 512] as const) {
    for (const [form, secret] of publicKeyForms)
      add(`HS${bits} keyed with our public key as ${form}`, hmacToken({ ...header, alg: `HS${bits}` }, claims, secret, bits));
  }

  // Keys the token chooses itself (RFC 7515 §4.1.2–4.1.5): each signed by an attacker, and once by us.
  add('a foreign key under our kid', byAttacker(header));
  add('an unknown kid with a foreign key', byAttacker({ ...header, kid: 'attacker' }));
  add('no kid', service(headerWithoutKid, claims));
  add('an embedded jwk signed by its own key', byAttacker({ ...headerWithoutKid, jwk: attackerJwk }));
  add('an embedded jwk next to our kid', byAttacker({ ...header, jwk: attackerJwk }));
  add('an embedded jwk, signed with our key', service({ ...header, jwk: publishedJwk }, claims));
  add('a jku header', byAttacker({ ...header, jku: 'https://attacker.example/jwks' }));
  add('a jku header, signed with our key', service({ ...header, jku: `${issuer}/.well-known/openid-configuration/jwks` }, claims));
  add('an x5u header', byAttacker({ ...header, x5u: 'https://attacker.example/cert.pem' }));
  add('an x5u header, signed with our key', service({ ...header, x5u: 'https://attacker.example/cert.pem' }, claims));
  add('an x5c header, signed with our key', service({ ...header, x5c: [randomBytes(32).toString('base64')] }, claims));

  // RFC 7515 §4.1.11: a critical extension we do not understand must be refused.
  add('a crit header naming an unknown extension', service({ ...header, crit: ['urn:example:unknown'], 'urn:example:unknown': true }, claims));
  add('a crit header naming exp', service({ ...header, crit: ['exp'] }, claims));
  add('an empty crit header', service({ ...header, crit: [] }, claims));

  // RFC 9068 §4: typ must be at+jwt.
  for (const typ of ['JWT', 'jwt', 'JOSE', 'id_token+jwt', 'at+jwt+evil', ' at+jwt', 'application/jwt', ''])
    add(`typ "${typ}"`, service({ ...header, typ }, claims));
  add('no typ', service({ alg: key.algorithm, kid: key.kid }, claims));
  add('typ that is not a string', service({ ...header, typ: ['at+jwt'] }, claims));

  // Claims: issuer and lifetime (60 s clock skew at most).
  for (const [name, iss] of [
    ['another issuer', 'https://attacker.example'],
    ['our issuer with a trailing slash', `${issuer}/`],
    ['our issuer in upper case', issuer.toUpperCase()],
    ['an issuer that is not a string', [issuer]],
  ] as const) {
    add(`iss of ${name}`, service(header, { ...claims, iss }));
  }
  const { iss: _iss, ...withoutIss } = claims;
  add('no iss', service(header, withoutIss));
  const issued = now() - 3600;
  add('exp 90 s ago, past the 60 s skew', service(header, { ...claims, iat: issued, nbf: issued, auth_time: issued, exp: now() - 90 }));
  add('exp an hour ago', service(header, { ...claims, iat: issued, nbf: issued, auth_time: issued, exp: now() - 3600 }));
  const { exp: _exp, ...withoutExp } = claims;
  add('no exp', service(header, withoutExp));
  add('exp that is a string', service(header, { ...claims, exp: String(now() + 600) }));
  add('nbf 5 minutes ahead, past the 60 s skew', service(header, { ...claims, nbf: now() + 300, exp: now() + 3600 }));
  // Lifetimes no token of ours has: longer than a client may be given (a year), or issued in the future.
  add('exp in the year 5000', service(header, { ...claims, exp: 95_617_584_000 }));
  add('exp two years ahead, iat now', service(header, { ...claims, exp: now() + 2 * 31_536_000 }));
  add('iat 5 minutes ahead, past the 60 s skew', service(header, { ...claims, iat: now() + 300, exp: now() + 900 }));
  add('user token without sub', service(header, (({ sub: _sub, ...rest }) => rest)(claims)));

  // Payloads that are not one JSON object (RFC 7519 §7.2 step 10).
  for (const [name, text] of [
    ['an array', JSON.stringify([claims])],
    ['a string', JSON.stringify('{"sub":"1"}')],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
    ['not JSON', JSON.stringify(claims).slice(0, -1)],
    ['JSON with trailing text', `${JSON.stringify(claims)}x`],
  ]) {
    add(`a payload that is ${name}`, serviceRaw(JSON.stringify(header), text));
  }
  add('a header that is an array', serviceRaw(JSON.stringify([header]), JSON.stringify(claims)));

  // Duplicate member names: JSON.parse keeps the last, other parsers the first (RFC 7515 §5.2).
  const claimsText = JSON.stringify(claims);
  add('two sub claims', serviceRaw(JSON.stringify(header), `{"sub":"2",${claimsText.slice(1)}`));
  add('two sub claims, the second escaped', serviceRaw(JSON.stringify(header), `${claimsText.slice(0, -1)},"\\u0073ub":"2"}`));
  add('two scope claims', serviceRaw(JSON.stringify(header), `${claimsText.slice(0, -1)},"scope":"openid profile email role api1 api2"}`));
  add('two iss claims', serviceRaw(JSON.stringify(header), `{"iss":"https://attacker.example",${claimsText.slice(1)}`));
  add('two client_id in act', serviceRaw(JSON.stringify(header), `${claimsText.slice(0, -1)},"act":{"client_id":"a","client_id":"b"}}`));
  add('two alg header parameters', serviceRaw(`{"alg":"none",${JSON.stringify(header).slice(1)}`, claimsText));
  add('two typ header parameters', serviceRaw(`{"typ":"JWT",${JSON.stringify(header).slice(1)}`, claimsText));
  add('two kid header parameters', serviceRaw(`${JSON.stringify(header).slice(0, -1)},"kid":"attacker"}`, claimsText));

  // Size and shape.
  const oversized = service(header, { ...claims, padding: 'x'.repeat(16 * 1024) });
  add('a token over 16 KiB', oversized);
  const jweHeader = segment({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.kid, typ: 'at+jwt' });
  const random = (bytes: number) => randomBytes(bytes).toString('base64url');
  add('a JWE (five segments)', `${jweHeader}.${random(256)}.${random(12)}.${random(64)}.${random(16)}`);
  add('a JWE with an empty encrypted key', `${jweHeader}..${random(12)}.${random(64)}.${random(16)}`);
  add('a fourth segment', `${control}.${realSignature}`);
  add('two segments', control.split('.').slice(0, 2).join('.'));

  // Tampering under the real signature.
  add('sub changed under the real signature', `${segment(header)}.${segment({ ...claims, sub: 'someone-else' })}.${realSignature}`);
  add('exp extended under the real signature', `${segment(header)}.${segment({ ...claims, exp: (claims.exp as number) + 86_400 })}.${realSignature}`);
  const flipped = Buffer.from(realSignature, 'base64url');
  flipped[flipped.length >> 1] ^= 0x01;
  add('one bit of the signature flipped', `${segment(header)}.${segment(claims)}.${flipped.toString('base64url')}`);

  // docs/tokens.md#delegated-tokens: act nests at most 8 levels.
  add(`act nested ${MAX_ACTOR_DEPTH + 1} levels`, service(header, { ...claims, act: actorChain(MAX_ACTOR_DEPTH + 1) }));
  add('act nested 50 levels', service(header, { ...claims, act: actorChain(50) }));
  add('act that is not an object', service(header, { ...claims, act: 'api1' }));

  return { control, forgeries, oversized };
}

/** Claims like the service's own for a user token, for specs that have no real token to start from. */
export function userTokenClaims(issuer: string, overrides: Json = {}): Json {
  const issuedAt = now();
  return {
    iss: issuer,
    sub: '1',
    aud: ['api1'],
    client_id: 'frontend',
    scope: 'openid profile api1',
    iat: issuedAt,
    nbf: issuedAt,
    exp: issuedAt + 600,
    jti: randomBytes(16).toString('hex'),
    auth_time: issuedAt,
    amr: ['pwd'],
    ...overrides,
  };
}

/** An act chain `depth` levels deep, outermost first. */
export function nestedActor(depth: number): Json {
  return actorChain(depth);
}

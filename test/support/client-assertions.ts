import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { ISSUER } from './create-test-app';

type DemoKeyName = 'batch' | 'demo-workloads' | 'demo-idp';
const demoKeys = JSON.parse(readFileSync(join(__dirname, '../fixtures/demo-keys.json'), 'utf8')) as Record<DemoKeyName, { public: JWK; private: JWK }>;

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const JWT_SPIFFE = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

/** The private half of a demo key pair (test/fixtures/demo-keys.json). */
export function demoPrivateJwk(name: DemoKeyName): JWK {
  return demoKeys[name].private;
}

export function demoPublicJwk(name: DemoKeyName): JWK {
  return demoKeys[name].public;
}

export interface SignOptions {
  readonly key?: JWK;
  readonly header?: Record<string, unknown>;
}

/** Signs claims with a JWK (ES256 unless the key says otherwise); undefined claims are left out. */
export async function signJwt(claims: Record<string, unknown>, { key = demoPrivateJwk('batch'), header = {} }: SignOptions = {}): Promise<string> {
  const alg = key.alg ?? 'ES256';
  const defined = Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
  return new SignJWT(defined).setProtectedHeader({ alg, kid: key.kid, ...header } as { alg: string }).sign(await importJWK(key, alg));
}

const now = () => Math.floor(Date.now() / 1000);

/** A private_key_jwt assertion (RFC 7523 §3) of `clientId`, valid for a minute, with a fresh jti. */
export function clientAssertion(clientId: string, claims: Record<string, unknown> = {}, options: SignOptions = {}): Promise<string> {
  return signJwt({ iss: clientId, sub: clientId, aud: ISSUER, iat: now(), exp: now() + 60, jti: randomUUID(), ...claims }, options);
}

/** A Kubernetes service-account token of the demo cluster, valid for an hour. */
export function serviceAccountToken(serviceAccount: string, claims: Record<string, unknown> = {}, options: SignOptions = {}): Promise<string> {
  return signJwt(
    { iss: 'https://kubernetes.demo.example', sub: `system:serviceaccount:${serviceAccount}`, aud: [ISSUER], iat: now(), exp: now() + 3600, ...claims },
    { key: demoPrivateJwk('demo-workloads'), ...options },
  );
}

/** A SPIFFE JWT-SVID signed with the demo trust domain's key, valid for an hour. */
export function jwtSvid(spiffeId: string, claims: Record<string, unknown> = {}, options: SignOptions = {}): Promise<string> {
  return signJwt({ sub: spiffeId, aud: [ISSUER], iat: now(), exp: now() + 3600, ...claims }, { key: demoPrivateJwk('demo-workloads'), ...options });
}

/** `alg: none`, unsigned (RFC 7519 §6). */
export function unsecuredJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}

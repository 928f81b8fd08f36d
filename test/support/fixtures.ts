import { createHash, randomBytes } from 'node:crypto';
import { PasswordHasher } from '../../src/identity/users/password.hasher';
import { sql } from './create-test-app';
import type { HttpResponse } from './http';

/** A name no other spec or run uses, for rows a test creates. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

export interface ClientSecretFixture {
  readonly secret: string;
  readonly expiresAt?: Date;
}

export interface ClientFixture {
  readonly clientId: string;
  readonly secrets: readonly ClientSecretFixture[];
  readonly grantTypes: readonly string[];
  readonly scopes: readonly string[];
  readonly enabled?: boolean;
  readonly accessTokenLifetimeSeconds?: number;
  readonly public?: boolean;
  readonly redirectUris?: readonly string[];
  readonly postLogoutRedirectUris?: readonly string[];
  readonly requireConsent?: boolean;
}

/** docs/client-authentication.md: secrets are stored as SHA-256, base64; computed here independently of src/. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64');
}

/** Inserts a client and its secrets directly, as an operator's migration would. */
export async function insertClient(client: ClientFixture): Promise<void> {
  await sql(
    `INSERT INTO clients (client_id, enabled, allowed_grant_types, allowed_scopes, access_token_lifetime,
       public_client, redirect_uris, post_logout_redirect_uris, require_consent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      client.clientId,
      client.enabled ?? true,
      client.grantTypes,
      client.scopes,
      client.accessTokenLifetimeSeconds ?? 3600,
      client.public ?? false,
      client.redirectUris ?? [],
      client.postLogoutRedirectUris ?? [],
      client.requireConsent ?? false,
    ],
  );
  for (const { secret, expiresAt } of client.secrets) {
    await sql('INSERT INTO client_secrets (client_id, value_hash, expires_at) VALUES ($1, $2, $3)', [client.clientId, secretHash(secret), expiresAt ?? null]);
  }
}

export interface UserFixture {
  readonly username: string;
  readonly password: string;
  readonly subjectId?: string;
  readonly enabled?: boolean;
  readonly claims?: Record<string, unknown>;
  readonly roles?: readonly string[];
}

/** Inserts a user with a scrypt hash of its password; returns its subject id. */
export async function insertUser(user: UserFixture): Promise<string> {
  const subjectId = user.subjectId ?? uniqueName('sub');
  await sql('INSERT INTO users (subject_id, username, password_hash, enabled, claims, roles) VALUES ($1, $2, $3, $4, $5, $6)', [
    subjectId,
    user.username,
    await new PasswordHasher().hash(user.password),
    user.enabled ?? true,
    JSON.stringify(user.claims ?? {}),
    user.roles ?? [],
  ]);
  return subjectId;
}

/** The exact shape of a docs/endpoints.md#token-endpoint token error: status, headers and body. */
export function expectTokenError(response: HttpResponse, status: number, error: string, { basicChallenge = false }: { basicChallenge?: boolean } = {}): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error, error_description: expect.any(String) },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  expect(response.headers.get('www-authenticate')).toBe(basicChallenge ? 'Basic realm="http://tollgate.test"' : null);
}

/** The headers of a docs/endpoints.md#token-endpoint successful token response. */
export function expectTokenSuccessHeaders(response: HttpResponse): void {
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  expect(response.headers.get('www-authenticate')).toBeNull();
}

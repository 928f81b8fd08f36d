import type { User } from './user';

/** A `users` row as the driver returns it: nothing about its shape can be taken for granted. */
export interface StoredUserRow {
  readonly subject_id: string;
  readonly username: string;
  readonly password_hash: string;
  readonly enabled: boolean;
  readonly claims: unknown;
  readonly roles: unknown;
  readonly updated_at: unknown;
}

export interface ReadUser {
  readonly user: User;
  /** What was skipped, by field name only: values may be personal data. */
  readonly skipped: readonly string[];
}

/**
 * A user from a stored row, keeping what is valid and skipping the rest, so a bad row (claims
 * that are not an object, `updated_at` = infinity, roles with nulls, nested arrays or empty
 * strings) never fails a request: `role` is always a list of non-empty strings (OIDC Core §5.1).
 */
export function readStoredUser(row: StoredUserRow): ReadUser {
  const skipped: string[] = [];
  const claims = readClaims(row.claims, skipped);
  const roles = readRoles(row.roles, skipped);
  const updatedAt = row.updated_at instanceof Date && Number.isFinite(row.updated_at.getTime()) ? row.updated_at : undefined;
  if (!updatedAt && row.updated_at !== null && row.updated_at !== undefined) skipped.push('updated_at');
  const user: User = {
    subjectId: row.subject_id,
    username: row.username,
    passwordHash: row.password_hash,
    enabled: row.enabled === true,
    claims,
    roles,
    updatedAt,
  };
  return { user, skipped };
}

function readClaims(stored: unknown, skipped: string[]): Record<string, unknown> {
  if (!isPlainObject(stored)) {
    skipped.push('claims');
    return {};
  }
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (isClaimValue(value)) claims[name] = value;
    else if (value !== null && value !== '') skipped.push(`claims.${name.slice(0, 64)}`);
  }
  return claims;
}

function readRoles(stored: unknown, skipped: string[]): string[] {
  if (!Array.isArray(stored)) {
    skipped.push('roles');
    return [];
  }
  // A text[] column may hold a multi-dimensional array (PostgreSQL allows at most 6 dimensions).
  const entries: unknown[] = stored.flat(6);
  const roles = entries.filter((role): role is string => typeof role === 'string' && role.length > 0);
  if (roles.length !== stored.length) skipped.push('roles (entries)');
  return [...new Set(roles)];
}

/** OIDC Core §5.1 claim values: strings, numbers, booleans, and JSON objects such as `address`. */
function isClaimValue(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return value.length > 0;
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    default:
      return isPlainObject(value) || (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'));
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

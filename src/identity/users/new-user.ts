import { randomUUID } from 'node:crypto';

/** A user as an operator adds or imports it (docs/users.md). */
export interface NewUser {
  readonly subjectId: string;
  readonly username: string;
  /** Empty when the user has no password yet: nothing verifies against it. */
  readonly passwordHash: string;
  readonly enabled: boolean;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly roles: readonly string[];
}

const MAX_NAME_LENGTH = 256;
const MAX_CLAIMS_BYTES = 16 * 1024;
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;

/** Checks the parts of a new user that do not depend on the password; returns what is wrong. */
export function newUserProblems(fields: { subjectId: unknown; username: unknown; claims: unknown; roles: unknown }): string[] {
  const problems: string[] = [];
  if (!isName(fields.username) || /\s/.test(fields.username)) problems.push('username must be 1–256 printable characters without spaces');
  if (!isName(fields.subjectId)) problems.push('sub must be 1–256 printable characters');
  const claims = fields.claims;
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) problems.push('claims must be a JSON object');
  else if (Buffer.byteLength(JSON.stringify(claims)) > MAX_CLAIMS_BYTES) problems.push('claims must be at most 16 KiB');
  else if ('sub' in claims || 'role' in claims) problems.push('claims must not hold sub or role (use "sub" and "roles")');
  const roles = fields.roles;
  if (!Array.isArray(roles) || !roles.every((role) => isName(role))) problems.push('roles must be an array of 1–256 character strings');
  return problems;
}

export function newSubjectId(): string {
  return randomUUID();
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME_LENGTH && PRINTABLE.test(value);
}

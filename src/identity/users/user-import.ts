import { importPasswordHash } from './imported-password-hash';
import { newSubjectId, newUserProblems, type NewUser } from './new-user';

const MAX_LINE_LENGTH = 64 * 1024;
const MEMBERS = new Set(['sub', 'username', 'password_hash', 'claims', 'roles', 'enabled']);

export type ImportLine = { readonly line: number; readonly user: NewUser } | { readonly line: number; readonly error: string };

/**
 * One JSON object a line: `{"username", "sub"?, "password_hash"?, "claims"?, "roles"?, "enabled"?}`
 * (docs/users.md). Blank lines are skipped; every other line is a user or the reason it is not.
 */
export function* parseUserImport(text: string): Generator<ImportLine> {
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].trim() === '') continue;
    yield { line: index + 1, ...parseLine(lines[index]) };
  }
}

function parseLine(text: string): { user: NewUser } | { error: string } {
  if (text.length > MAX_LINE_LENGTH) return { error: 'line longer than 64 KiB' };
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return { error: 'not valid JSON' };
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { error: 'not a JSON object' };
  const fields = record as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !MEMBERS.has(name));
  if (unknown) return { error: `unknown member ${JSON.stringify(unknown.slice(0, 40))}` };
  const user = {
    subjectId: fields.sub ?? newSubjectId(),
    username: fields.username,
    claims: fields.claims ?? {},
    roles: fields.roles ?? [],
  };
  const problems = newUserProblems(user);
  if (fields.enabled !== undefined && typeof fields.enabled !== 'boolean') problems.push('enabled must be true or false');
  const password = fields.password_hash === undefined ? { hash: '' } : importPasswordHash(fields.password_hash);
  if ('error' in password) problems.push(password.error);
  if (problems.length > 0) return { error: problems.join('; ') };
  return {
    user: {
      ...(user as Pick<NewUser, 'subjectId' | 'username' | 'claims' | 'roles'>),
      passwordHash: (password as { hash: string }).hash,
      enabled: fields.enabled !== false,
    },
  };
}

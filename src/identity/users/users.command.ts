import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { CredentialChange } from '../signals/security-events';
import { credentialTypeOf, type Passkey } from '../passkeys/passkey';
import { newSubjectId, newUserProblems } from './new-user';
import { PasswordHasher } from './password.hasher';
import { parseUserImport } from './user-import';
import { UserRepository } from './user.repository';

export const USERS_USAGE = `Usage: tollgate users <command>   (from a checkout: npm run users -- <command>)
  add <username> [--sub <id>] [--claims <json>] [--role <role>]... [--disabled] [--generate-password]
  set-password <username> [--generate-password]
  disable <username>
  enable <username>
  import <file.jsonl | ->
  remove-passkeys <username>       (the user signs in with a password again; docs/passkeys.md)
  list [--json]                    show <username or subject id> [--json]   (read-only; never a password hash;
                                   show counts the user's passkeys)
Passwords are read from standard input (its first line; typed at a terminal: hidden, twice),
never from the command line; with --generate-password a random one is printed once. The import format is in docs/users.md.`;

const PASSWORD_LENGTH = { min: 8, max: 1024 } as const;

/** What the command reads and writes besides the database; a terminal or a test. */
export interface CommandIo {
  readStdin(): Promise<string>;
  /** Only when standard input is a terminal: one line typed without echo after `prompt`, ended by Enter. */
  readHiddenLine?(prompt: string): Promise<string>;
  readFile(path: string): Promise<string>;
  out(text: string): void;
  err(text: string): void;
}

/** What the command tells relying parties and APIs (docs/signals.md): `SecurityEvents` and `SessionTermination`. */
export interface UserSignals {
  credentialChanged(subject: string, change: CredentialChange): Promise<void>;
  /** Ends the user's sessions (a disabled user); the sessions it ended. */
  endSessionsOf(subject: string): Promise<readonly unknown[]>;
}

const PASSWORD_SET: CredentialChange = { credentialType: 'password', changeType: 'create', initiatingEntity: 'admin' };
const PASSWORD_CHANGED: CredentialChange = { credentialType: 'password', changeType: 'update', initiatingEntity: 'admin' };

class UsageError extends Error {}
/** A request understood and refused (exit code 1): a password of the wrong length, or typed differently twice. */
class RefusedError extends Error {}

function checkLength(password: string): void {
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    throw new RefusedError(`the password must be ${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters (or use --generate-password)`);
  }
}

/** What the command needs of a user's passkeys (identity/passkeys/): removing them all, e.g. after a lost device. */
export interface PasskeyRemoval {
  /** Removes the user's passkeys; returns those there were. */
  removeAllOf(subjectId: string): Promise<readonly Pick<Passkey, 'attachment'>[]>;
}

/** The operator's user commands (docs/users.md). Exit codes: 0 done, 1 refused or partly failed, 2 usage. */
export class UsersCommand {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly io: CommandIo,
    private readonly signals: UserSignals,
    private readonly passkeys?: PasskeyRemoval,
  ) {}

  async run(argv: readonly string[]): Promise<number> {
    try {
      const { values, positionals } = parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: {
          sub: { type: 'string' },
          claims: { type: 'string' },
          role: { type: 'string', multiple: true },
          disabled: { type: 'boolean' },
          'generate-password': { type: 'boolean' },
          help: { type: 'boolean' },
        },
      });
      const [command, argument, ...rest] = positionals;
      if (values.help) return this.usage(0);
      if (!command || !argument || rest.length > 0) throw new UsageError('expected a command and one argument');
      switch (command) {
        case 'add':
          return await this.add(argument, values);
        case 'set-password':
          return await this.setPassword(argument, values['generate-password']);
        case 'disable':
          return await this.disable(argument);
        case 'enable':
          return this.report(await this.users.setEnabled(argument, true), argument);
        case 'import':
          return await this.import(argument);
        case 'remove-passkeys':
          return await this.removePasskeys(argument);
        default:
          throw new UsageError(`unknown command ${command}`);
      }
    } catch (error) {
      if (error instanceof RefusedError) return this.refuse(error.message);
      if (!(error instanceof UsageError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true) throw error;
      this.io.err(`users: ${(error as Error).message}\n`);
      return this.usage(2);
    }
  }

  private async add(
    username: string,
    options: { sub?: string; claims?: string; role?: string[]; disabled?: boolean; 'generate-password'?: boolean },
  ): Promise<number> {
    let claims: unknown;
    try {
      claims = JSON.parse(options.claims ?? '{}');
    } catch {
      throw new UsageError('--claims is not valid JSON');
    }
    const user = { subjectId: options.sub ?? newSubjectId(), username, claims, roles: options.role ?? [] };
    const problems = newUserProblems(user);
    if (problems.length > 0) throw new UsageError(problems.join('; '));
    const passwordHash = await this.password(options['generate-password']);
    const added = await this.users.add({ ...user, claims: claims as Record<string, unknown>, passwordHash, enabled: !options.disabled });
    if (!added) return this.refuse(`a user named ${username} or with sub ${user.subjectId} exists already`);
    await this.signals.credentialChanged(user.subjectId, PASSWORD_SET);
    this.io.out(`Added user ${username} (sub ${user.subjectId}).\n`);
    return 0;
  }

  /** CAEP credential-change (docs/signals.md): APIs holding the user's tokens learn that the password changed. */
  private async setPassword(username: string, generate: boolean | undefined): Promise<number> {
    const changed = await this.users.setPasswordHash(username, await this.password(generate));
    const user = changed ? await this.users.findByUsername(username) : undefined;
    if (user) await this.signals.credentialChanged(user.subjectId, PASSWORD_CHANGED);
    return this.report(changed, username);
  }

  /** Ends the user's sessions: logout tokens and CAEP session-revoked (docs/signals.md#when-a-session-ends). */
  private async disable(username: string): Promise<number> {
    const changed = await this.users.setEnabled(username, false);
    const user = changed ? await this.users.findByUsername(username) : undefined;
    if (user) {
      const ended = await this.signals.endSessionsOf(user.subjectId);
      this.io.out(`Ended ${ended.length} session(s) of ${username}.\n`);
    }
    return this.report(changed, username);
  }

  private async import(path: string): Promise<number> {
    const text = path === '-' ? await this.io.readStdin() : await this.io.readFile(path);
    let added = 0;
    let failed = 0;
    for (const result of parseUserImport(text)) {
      const problem = 'error' in result ? result.error : (await this.users.add(result.user)) ? undefined : 'username or sub exists already';
      if (problem) this.io.err(`line ${result.line}: ${problem}\n`);
      else if ('user' in result && result.user.passwordHash !== '') await this.signals.credentialChanged(result.user.subjectId, PASSWORD_SET);
      if (problem) failed++;
      else added++;
    }
    this.io.out(`Imported ${added} user(s); ${failed} line(s) refused.\n`);
    return failed === 0 ? 0 : 1;
  }

  private async removePasskeys(username: string): Promise<number> {
    const user = await this.users.findByUsername(username);
    if (!user || !this.passkeys) return this.refuse(`no user named ${username}`);
    const removed = await this.passkeys.removeAllOf(user.subjectId);
    for (const passkey of removed) {
      await this.signals.credentialChanged(user.subjectId, { credentialType: credentialTypeOf(passkey), changeType: 'delete', initiatingEntity: 'admin' });
    }
    this.io.out(`Removed ${removed.length} passkey(s) of user ${username}.\n`);
    return 0;
  }

  /** A new password's hash: from the first line of standard input, or generated and printed once. */
  private async password(generate: boolean | undefined): Promise<string> {
    if (generate) {
      const password = randomBytes(18).toString('base64url');
      this.io.out(`Generated password (shown once): ${password}\n`);
      return this.passwords.hash(password);
    }
    if (this.io.readHiddenLine) return this.passwords.hash(await this.typedPassword(this.io.readHiddenLine.bind(this.io)));
    const [password = ''] = (await this.io.readStdin()).split(/\r?\n/, 1);
    checkLength(password);
    return this.passwords.hash(password);
  }

  /** At a terminal: typed without echo, and again, since a typing mistake cannot be seen. */
  private async typedPassword(readHiddenLine: (prompt: string) => Promise<string>): Promise<string> {
    const password = await readHiddenLine('Password: ');
    checkLength(password);
    if ((await readHiddenLine('The same password again: ')) !== password) throw new RefusedError('the two passwords typed differ');
    return password;
  }

  private report(changed: boolean, username: string): number {
    if (!changed) return this.refuse(`no user named ${username}`);
    this.io.out(`Updated user ${username}.\n`);
    return 0;
  }

  private refuse(message: string): number {
    this.io.err(`users: ${message}\n`);
    return 1;
  }

  private usage(code: number): number {
    (code === 0 ? this.io.out : this.io.err)(`${USERS_USAGE}\n`);
    return code;
  }
}

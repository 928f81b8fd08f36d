import { parseArgs } from 'node:util';
import type { EndedSignInSession, SignInSession } from '../../src/identity/sessions/sign-in-session';
import type { SignInSessionService } from '../../src/identity/sessions/sign-in-session.service';
import type { SessionTermination } from '../../src/identity/signals/session-termination';
import type { UserRepository } from '../../src/identity/users/user.repository';
import { formatTable } from '../inventory/inventory-format';

export const SESSIONS_USAGE = `Usage: tollgate sessions <command>
  list <username or subject id> [--json]   the user's active sign-in sessions: sid, times, the clients given ID tokens
  end <sid>                                ends one session
  end --user <username or subject id>      ends every session of the user (signs the user out everywhere)
Each session ended sends its logout tokens (OpenID Connect Back-Channel Logout) and a CAEP session-revoked to the
Shared Signals receivers the user's tokens named, from the outbox, delivered by the running service (docs/signals.md).`;

export interface SessionsIo {
  out(text: string): void;
  err(text: string): void;
}

class UsageError extends Error {}

/** The operator's session commands (docs/signals.md#when-a-session-ends). Exit codes: 0 done, 1 nothing found, 2 usage. */
export class SessionsCommand {
  constructor(
    private readonly users: Pick<UserRepository, 'findByUsername' | 'findBySubjectId'>,
    private readonly sessions: Pick<SignInSessionService, 'activeSessionsOf'>,
    private readonly termination: Pick<SessionTermination, 'endSession' | 'endSessionsOf'>,
    private readonly io: SessionsIo,
  ) {}

  async run(argv: readonly string[]): Promise<number> {
    let parsed;
    try {
      parsed = parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: { user: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
      });
      if (parsed.values.help) return this.usage(0);
      const [command, argument, ...rest] = parsed.positionals;
      if (rest.length > 0 || (argument ?? parsed.values.user ?? '').length > 256) throw new UsageError('too many arguments');
      if (command === 'list' && argument !== undefined && parsed.values.user === undefined) return await this.list(argument, parsed.values.json === true);
      if (command === 'end' && argument !== undefined && parsed.values.user === undefined) return await this.end(argument);
      if (command === 'end' && argument === undefined && parsed.values.user !== undefined) return await this.endAll(parsed.values.user);
      throw new UsageError(command === undefined ? 'expected a command' : `cannot ${command} with these arguments`);
    } catch (error) {
      if (!(error instanceof UsageError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true) throw error;
      this.io.err(`sessions: ${(error as Error).message}\n`);
      return this.usage(2);
    }
  }

  private async list(name: string, json: boolean): Promise<number> {
    const subject = await this.subjectOf(name);
    if (subject === undefined) return this.refuse(`no user ${JSON.stringify(name)}`);
    const sessions = await this.sessions.activeSessionsOf(subject);
    if (json) this.io.out(`${JSON.stringify(sessions.map(view), null, 2)}\n`);
    else
      this.io.out(
        formatTable(
          ['SID', 'SIGNED_IN', 'EXPIRES', 'ID_TOKENS_TO'],
          sessions.map(view).map((session) => [session.sid, session.authTime, session.expiresAt, session.idTokenClients.join(',') || '-']),
        ),
      );
    return 0;
  }

  private async end(sessionId: string): Promise<number> {
    const ended = await this.termination.endSession(sessionId);
    if (!ended) return this.refuse(`no session ${JSON.stringify(sessionId)}`);
    this.io.out(`Ended session ${ended.sessionId} of ${ended.subject}${told(ended)}.\n`);
    return 0;
  }

  private async endAll(name: string): Promise<number> {
    const subject = await this.subjectOf(name);
    if (subject === undefined) return this.refuse(`no user ${JSON.stringify(name)}`);
    const ended = await this.termination.endSessionsOf(subject);
    this.io.out(`Ended ${ended.length} session(s) of ${subject}.\n`);
    return 0;
  }

  private async subjectOf(name: string): Promise<string | undefined> {
    return ((await this.users.findByUsername(name)) ?? (await this.users.findBySubjectId(name)))?.subjectId;
  }

  private refuse(message: string): number {
    this.io.err(`sessions: ${message}\n`);
    return 1;
  }

  private usage(code: number): number {
    (code === 0 ? this.io.out : this.io.err)(`${SESSIONS_USAGE}\n`);
    return code;
  }
}

function view(session: SignInSession & EndedSignInSession) {
  return {
    sid: session.sessionId,
    authTime: new Date(session.authTime * 1000).toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    idTokenClients: [...session.idTokenClientIds],
  };
}

function told(session: EndedSignInSession): string {
  return session.idTokenClientIds.length === 0 ? '' : `; logout tokens queued for the clients it gave ID tokens to (${session.idTokenClientIds.join(', ')})`;
}

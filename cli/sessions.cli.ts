import 'reflect-metadata';
import { SignInSessionService } from '../src/identity/sessions/sign-in-session.service';
import { SessionTermination } from '../src/identity/signals/session-termination';
import { SignalsModule } from '../src/identity/signals/signals.module';
import { UserRepository } from '../src/identity/users/user.repository';
import { UsersModule } from '../src/identity/users/users.module';
import { openOperatorContext } from './operator-context';
import { SessionsCommand, SESSIONS_USAGE } from './signals/sessions.command';

/** `tollgate sessions list|end …`: the operator lists and ends sign-in sessions (docs/signals.md#when-a-session-ends). */
export async function runSessionsCommand(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help')) {
    (argv.length === 0 ? process.stderr : process.stdout).write(`${SESSIONS_USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const opened = await openOperatorContext([UsersModule, SignalsModule]);
  if (!opened) return 1;
  const { app } = opened;
  try {
    const io = { out: (text: string) => void process.stdout.write(text), err: (text: string) => void process.stderr.write(text) };
    return await new SessionsCommand(app.get(UserRepository), app.get(SignInSessionService), app.get(SessionTermination), io).run(argv);
  } finally {
    await app.close();
  }
}

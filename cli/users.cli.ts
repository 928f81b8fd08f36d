import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { PasswordHasher } from '../src/identity/users/password.hasher';
import { UserRepository } from '../src/identity/users/user.repository';
import { UsersCommand, USERS_USAGE } from '../src/identity/users/users.command';
import { UsersModule } from '../src/identity/users/users.module';
import { PasskeyRepository } from '../src/identity/passkeys/passkey.repository';
import { PasskeysModule } from '../src/identity/passkeys/passkeys.module';
import { SecurityEvents } from '../src/identity/signals/security-events';
import { SessionTermination } from '../src/identity/signals/session-termination';
import { SignalsModule } from '../src/identity/signals/signals.module';
import { readHiddenLine } from './hidden-input';
import { openOperatorContext } from './operator-context';

/** `tollgate users …` (`npm run users -- …`): the operator's user commands, on the service's own modules (docs/users.md). */
export async function runUsersCommand(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help')) {
    (argv.length === 0 ? process.stderr : process.stdout).write(`${USERS_USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const opened = await openOperatorContext([UsersModule, PasskeysModule, SignalsModule]);
  if (!opened) return 1;
  const { app } = opened;
  try {
    const io = {
      readStdin: () => text(process.stdin),
      // A password typed at a terminal is not echoed, and Enter ends it (docs/users.md).
      readHiddenLine: process.stdin.isTTY ? (prompt: string) => readHiddenLine(prompt) : undefined,
      readFile: (path: string) => readFile(path, 'utf8'),
      out: (chunk: string) => void process.stdout.write(chunk),
      err: (chunk: string) => void process.stderr.write(chunk),
    };
    // docs/signals.md: the logout tokens and CAEP events go to the outbox; the running service delivers them.
    const events = app.get(SecurityEvents);
    const sessions = app.get(SessionTermination);
    const signals = {
      credentialChanged: events.credentialChanged.bind(events),
      endSessionsOf: sessions.endSessionsOf.bind(sessions),
    };
    return await new UsersCommand(app.get(UserRepository), app.get(PasswordHasher), io, signals, app.get(PasskeyRepository)).run(argv);
  } finally {
    await app.close();
  }
}

import 'reflect-metadata';
import { InitialAccessTokenRepository } from '../src/endpoints/client-registration/registered-client.repository';
import { REGISTRATION_TOKENS_USAGE, RegistrationTokensCommand } from '../src/endpoints/client-registration/registration-tokens.command';
import { RegistrationTokensModule } from '../src/endpoints/client-registration/registration-tokens.module';
import { openOperatorContext } from '../cli/operator-context';

/** `tollgate registration-tokens …`: initial access tokens for dynamic client registration (docs/agents.md). */
export async function runRegistrationTokensCommand(argv: readonly string[]): Promise<number> {
  const io = { out: (text: string) => void process.stdout.write(text), err: (text: string) => void process.stderr.write(text) };
  if (argv.length === 0 || argv[0] === '--help') {
    (argv.length === 0 ? process.stderr : process.stdout).write(`${REGISTRATION_TOKENS_USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const opened = await openOperatorContext([RegistrationTokensModule]);
  if (!opened) return 1;
  try {
    return await new RegistrationTokensCommand(opened.app.get(InitialAccessTokenRepository), io).run(argv);
  } finally {
    await opened.app.close();
  }
}

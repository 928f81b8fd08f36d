import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, type AppConfig } from '../src/config/app.config';
import { ConfigModule } from '../src/config/config.module';
import { DatabaseModule } from '../src/database/database.module';
import { PasswordHasher } from '../src/users/password.hasher';
import { UserRepository } from '../src/users/user.repository';
import { UsersCommand, USERS_USAGE } from '../src/users/users.command';
import { UsersModule } from '../src/users/users.module';

/** `tollgate users …` (`npm run users -- …`): the operator's user commands, on the service's own modules (docs/users.md). */
export async function runUsersCommand(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help')) {
    (argv.length === 0 ? process.stderr : process.stdout).write(`${USERS_USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  let config: AppConfig;
  try {
    config = { ...loadConfig(), seedDemo: false };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const app = await NestFactory.createApplicationContext(
    { module: class UsersCommandModule {}, imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(), UsersModule] },
    { logger: ['error', 'warn'] },
  );
  try {
    const io = {
      readStdin: () => text(process.stdin),
      readFile: (path: string) => readFile(path, 'utf8'),
      out: (chunk: string) => void process.stdout.write(chunk),
      err: (chunk: string) => void process.stderr.write(chunk),
    };
    return await new UsersCommand(app.get(UserRepository), app.get(PasswordHasher), io).run(argv);
  } finally {
    await app.close();
  }
}

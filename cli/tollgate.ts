#!/usr/bin/env node
import 'reflect-metadata';
import { SchemaBehindError } from '../src/platform/database/schema-behind.error';
import type { CommandIo, ExistingRecords } from './client-migration/client-migration.command';
import { SCHEMA_BEHIND_EXIT_CODE } from './exit-codes';

/**
 * `tollgate <command> [options]`: the operator commands, compiled, so they run where there is no
 * TypeScript compiler (the container image). `npm run <command>` calls the same code. To add a
 * command, add a line here; its module is loaded only when it runs. docs/operations.md.
 */
const COMMANDS: Record<string, { readonly summary: string; readonly run: (argv: readonly string[], io: CommandIo) => Promise<number> }> = {
  start: {
    summary: 'run the service, as the container image does (with TOLLGATE_EXTENSIONS, docs/configuration.md)',
    // The service keeps the process alive, and ends it itself: at a failed start, and at SIGTERM or SIGINT.
    run: async (argv) => {
      if (argv.length > 0) throw new Error('takes no options: the service reads its environment (docs/configuration.md)');
      await import('../src/main.js');
      return 0;
    },
  },
  migrate: {
    summary: 'apply the pending migrations (the only command that does; --check lists them)',
    run: async (argv) => (await import('./migrate.cli.js')).runMigrateCommand(argv),
  },
  'keys:rotate': {
    summary: 'create a new signing key now (reads the service environment)',
    run: async (argv) => (await import('./rotate-signing-key.js')).runKeysRotateCommand(argv),
  },
  'client:migration': {
    summary: 'write a migration that adds a client, changes it, or rotates its secrets',
    run: async (argv, io) => (await import('./client-migration/client-migration.command.js')).runClientMigrationCommand(argv, io),
  },
  users: {
    summary: 'add users, set passwords (from standard input), disable, enable, import JSON lines; list, show',
    run: async (argv) =>
      argv[0] === 'list' || argv[0] === 'show'
        ? (await import('./inventory.cli.js')).runInventoryCommand('users', argv)
        : (await import('./users.cli.js')).runUsersCommand(argv),
  },
  clients: {
    summary: 'list the clients, or show one (never a secret or its hash)',
    run: async (argv) => (await import('./inventory.cli.js')).runInventoryCommand('clients', argv),
  },
  resources: {
    summary: 'list the API and identity resources, or show one',
    run: async (argv) => (await import('./inventory.cli.js')).runInventoryCommand('resources', argv),
  },
  issuers: {
    summary: 'list the trusted issuers, or show one',
    run: async (argv) => (await import('./inventory.cli.js')).runInventoryCommand('issuers', argv),
  },
  'issuer:migration': {
    summary:
      'write a migration that trusts a workload, subject or authorization-grant issuer (changes or disables one), or registers a partner authorization server',
    run: async (argv, io) => (await import('./issuer-migration/issuer-migration.command.js')).runIssuerMigrationCommand(argv, io),
  },
  'registration-tokens': {
    summary: 'create, list or revoke initial access tokens for dynamic client registration',
    run: async (argv) => (await import('./registration-tokens.cli.js')).runRegistrationTokensCommand(argv),
  },
  sessions: {
    summary: "list a user's sign-in sessions, or end one or all of them (logout tokens and CAEP events follow)",
    run: async (argv) => (await import('./sessions.cli.js')).runSessionsCommand(argv),
  },
  signals: {
    summary: 'show each Shared Signals stream with its state and backlog, and the back-channel logout backlog',
    run: async (argv) => (await import('./signals.cli.js')).runSignalsCommand(argv),
  },
  'resource:migration': {
    summary: 'write a migration that adds an API resource and its scopes, or changes one',
    run: async (argv, io) => (await import('./resource-migration/resource-migration.command.js')).runResourceMigrationCommand(argv, io),
  },
};

const USAGE = `Usage: tollgate <command> [options]     (tollgate <command> --help for its options)
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(20)}${summary}`)
  .join('\n')}
Migrations are written to --out-dir, else MIGRATIONS_OUT_DIR, else ./migrations, and applied by
\`tollgate migrate\` or the service's start: no other command applies one (exit code 3 while any is pending).`;

async function main([name, ...argv]: readonly string[]): Promise<number> {
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command || !Object.hasOwn(COMMANDS, name)) {
    const help = name === undefined || name === '--help' || name === 'help';
    process.stderr.write(`${help ? '' : `tollgate: unknown command ${JSON.stringify(name)}\n`}${USAGE}\n`);
    return help ? 0 : 2;
  }
  const database = new ServiceDatabase();
  try {
    return await command.run(argv, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      cwd: process.cwd(),
      defaultOutDir: process.env.MIGRATIONS_OUT_DIR || undefined,
      existing: () => database.open(),
    });
  } finally {
    await database.close();
  }
}

/** The database the service uses, opened only when a migration command checks what exists. */
class ServiceDatabase {
  private opened?: ReturnType<typeof import('./inventory.cli.js').openInventory>;

  async open(): Promise<ExistingRecords> {
    this.opened ??= import('./inventory.cli.js').then(({ openInventory }) =>
      openInventory().catch((error: unknown) => {
        if (!(error instanceof SchemaBehindError)) throw error;
        throw new SchemaBehindError(error.pending, ' Nothing was written; --offline writes the migration without checking the database.');
      }),
    );
    const opened = await this.opened;
    if (!opened) throw new Error("cannot check the service's database with these settings (above): fix them, or give --offline");
    return opened.inventory;
  }

  async close(): Promise<void> {
    const opened = await this.opened?.catch(() => undefined);
    await opened?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tollgate ${process.argv[2]}: ${error instanceof Error ? error.message : String(error)}\n`);
    // At once: a failed open may leave the embedded database's socket open (pipes and files are written synchronously).
    process.exit(error instanceof SchemaBehindError ? SCHEMA_BEHIND_EXIT_CODE : 1);
  },
);

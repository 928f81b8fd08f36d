import { parseResourceMigrationArguments, ResourceMigrationUsageError } from './resource-migration-arguments';
import { renderResourceMigration } from './resource-migration-source';

function problemOf(...argv: string[]): string {
  try {
    parseResourceMigrationArguments(argv);
  } catch (error) {
    if (error instanceof ResourceMigrationUsageError) return error.message;
    throw error;
  }
  throw new Error('expected a ResourceMigrationUsageError');
}

describe('parseResourceMigrationArguments', () => {
  it.each([
    [['--scope', 'api2'], '--api is required'],
    [['--api', 'api 2', '--scope', 'api2'], '--api "api 2" must be 1 to 200 characters: letters, digits and . _ ~ : / -, starting with a letter or digit'],
    [['--api', 'api2'], '--scope is required (at least one scope)'],
    [['--api', 'api2', '--scope', 'api"2'], '--scope "api"2" is not a valid scope token (RFC 6749 §3.3)'],
    [['--api', 'api2', '--scope', 'api2', '--grant', 'x'], expect.stringContaining("Unknown option '--grant'")],
  ])('refuses %j', (argv, problem) => {
    expect(problemOf(...argv)).toEqual(problem);
  });

  it('reads an API resource with repeated or listed scopes, and the output options', () => {
    expect(parseResourceMigrationArguments(['--api', 'https://api2.example', '--scope', 'api2.read api2.write', '--scope', 'api2.read'])).toEqual({
      request: { kind: 'api', name: 'https://api2.example', scopes: ['api2.read', 'api2.write'] },
      outDir: 'migrations',
      updateIndex: true,
      offline: false,
    });
    expect(parseResourceMigrationArguments(['--api', 'api2', '--scope', 'api2', '--no-index'], '/migrations')).toMatchObject({
      outDir: '/migrations',
      updateIndex: false,
    });
    expect(parseResourceMigrationArguments(['--help'])).toBeUndefined();
  });
});

describe('renderResourceMigration', () => {
  it('inserts the resource, refusing one that exists; down deletes it', () => {
    const migration = renderResourceMigration({ kind: 'api', name: 'https://api2.example', scopes: ['api2'] }, 1_795_000_000_000);
    expect(migration.className).toBe('AddApiResourceHttpsApi2Example1795000000000');
    expect(migration.fileBase).toBe('1795000000000-AddApiResourceHttpsApi2Example');
    expect(migration.source).toContain(`'INSERT INTO api_resources (name, scopes) VALUES ($1, $2)', ["https://api2.example", ["api2"]]`);
    expect(migration.source).toContain(
      'throw new Error("API resource \\"https://api2.example\\" already exists: change it with npm run resource:migration -- --api https://api2.example --change',
    );
    expect(migration.source).toContain(
      `async down(queryRunner: QueryRunner): Promise<void> {\n    await queryRunner.query('DELETE FROM api_resources WHERE name = $1', ["https://api2.example"]);`,
    );
  });
});

describe('--change of an API resource', () => {
  it('reads the scopes and enabled flag given, and refuses a change of nothing', () => {
    expect(parseResourceMigrationArguments(['--api', 'api2', '--change', '--scope', 'api2 api2.read'])?.request).toEqual({
      kind: 'change-api',
      name: 'api2',
      changes: { scopes: ['api2', 'api2.read'] },
    });
    expect(parseResourceMigrationArguments(['--api', 'api2', '--disable'])?.request).toEqual({ kind: 'change-api', name: 'api2', changes: { enabled: false } });
    expect(problemOf('--api', 'api2', '--change')).toBe('--change needs at least one setting to change: --scope, --enable or --disable');
    expect(problemOf('--api', 'api2', '--enable', '--disable')).toBe('--enable and --disable contradict each other');
  });

  it('records the columns it sets in api_resource_settings_before_migration; down puts them back', () => {
    const migration = renderResourceMigration(
      { kind: 'change-api', name: 'api2', changes: { scopes: ['api2', 'api2.read'], enabled: false } },
      1_795_000_000_000,
    );
    expect(migration.className).toBe('ChangeApiResourceApi21795000000000');
    expect(migration.source).toContain(
      `"INSERT INTO api_resource_settings_before_migration (migration, name, settings) SELECT $1, name, jsonb_build_object('scopes', scopes, 'enabled', enabled) FROM api_resources WHERE name = $2",`,
    );
    expect(migration.source).toContain(`'UPDATE api_resources SET scopes = $2, enabled = $3 WHERE name = $1', ["api2", ["api2","api2.read"], false]`);
    expect(migration.source).toContain(
      `'UPDATE api_resources SET scopes = $2, enabled = $3 WHERE name = $1', ["api2", before.settings.scopes, before.settings.enabled]`,
    );
    expect(migration.source).toContain(
      'throw new Error("API resource \\"api2\\" does not exist: add it with npm run resource:migration -- --api api2 --scope <scopes>");',
    );
  });
});

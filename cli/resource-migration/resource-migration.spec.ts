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
    [['--api', 'api2', '--scope', 'api2', '--uri', '/api2'], '--uri "/api2" must be an absolute URI without a fragment or spaces, at most 512 characters'],
    [
      ['--api', 'api2', '--scope', 'api2', '--uri', 'https://api2.example/#x'],
      expect.stringContaining('--uri "https://api2.example/#x" must be an absolute URI'),
    ],
    [
      ['--api', 'api2', '--scope', 'api2', '--uri', 'https://api2.example/a b'],
      expect.stringContaining('must be an absolute URI without a fragment or spaces'),
    ],
    [['--api', 'api2', '--scope', 'api2', '--uri', `https://api2.example/${'a'.repeat(500)}`], expect.stringContaining('at most 512 characters')],
    [['--api', 'api2', '--scope', 'api2', '--served-by', 'api 2'], expect.stringContaining('--served-by "api 2" must be a client id')],
    [['--api', 'api2', '--scope', 'api2', '--served-by', 'a'.repeat(101)], expect.stringContaining('must be a client id: 1 to 100 characters')],
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

  it('reads the resource URI and the serving client', () => {
    const argv = ['--api', 'notes', '--scope', 'notes', '--uri', 'http://127.0.0.1:5180/mcp', '--served-by', 'notes-mcp'];
    expect(parseResourceMigrationArguments(argv)?.request).toEqual({
      kind: 'api',
      name: 'notes',
      scopes: ['notes'],
      uri: 'http://127.0.0.1:5180/mcp',
      servedBy: 'notes-mcp',
    });
    expect(parseResourceMigrationArguments(['--api', 'api3', '--scope', 'api3', '--uri', 'urn:example:api3'])?.request).toMatchObject({
      uri: 'urn:example:api3',
    });
  });
});

describe('renderResourceMigration', () => {
  it('inserts the resource, refusing one that exists; down deletes it', () => {
    const migration = renderResourceMigration({ kind: 'api', name: 'https://api2.example', scopes: ['api2'] }, 1_795_000_000_000);
    expect(migration.className).toBe('AddApiResourceHttpsApi2Example1795000000000');
    expect(migration.fileBase).toBe('1795000000000-AddApiResourceHttpsApi2Example');
    expect(migration.source).toContain(
      `'INSERT INTO api_resources (name, scopes, resource_uri, serving_client_id) VALUES ($1, $2, $3, $4)', [\n      "https://api2.example",\n      ["api2"],\n      null,\n      null,\n    ]`,
    );
    expect(migration.source).toContain(
      'throw new Error("API resource \\"https://api2.example\\" already exists: change it with npm run resource:migration -- --api https://api2.example --change',
    );
    expect(migration.source).not.toContain('resource_uri = $1');
    expect(migration.source).toContain(
      `async down(queryRunner: QueryRunner): Promise<void> {\n    await queryRunner.query('DELETE FROM api_resources WHERE name = $1', ["https://api2.example"]);`,
    );
  });

  it('stores the resource URI and the serving client, refusing a URI another resource has', () => {
    const request = { kind: 'api', name: 'notes', scopes: ['notes'], uri: 'http://127.0.0.1:5180/mcp', servedBy: 'notes-mcp' } as const;
    const { source } = renderResourceMigration(request, 1_795_000_000_000);
    expect(source).toContain(' * Adds API resource `notes` with scopes notes, resource URI http://127.0.0.1:5180/mcp, served by client `notes-mcp`.');
    expect(source).toContain(`'SELECT 1 FROM api_resources WHERE resource_uri = $1', ["http://127.0.0.1:5180/mcp"]`);
    expect(source).toContain('throw new Error("another API resource already has the URI http://127.0.0.1:5180/mcp");');
    expect(source).toContain(`[\n      "notes",\n      ["notes"],\n      "http://127.0.0.1:5180/mcp",\n      "notes-mcp",\n    ]`);
  });

  it('cannot end its comment early with a URI holding */', () => {
    const { source } = renderResourceMigration({ kind: 'api', name: 'x', scopes: ['x'], uri: 'https://x.example/*/' }, 1_795_000_000_000);
    expect(source.indexOf('*/')).toBeGreaterThan(source.indexOf('Generated by'));
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
    expect(problemOf('--api', 'api2', '--change')).toBe(
      '--change needs at least one setting to change: --scope, --uri, --served-by, --enable, --disable, --open-to-self-registered or --close-to-self-registered',
    );
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

  it('reads a new resource URI and serving client with the same checks as when adding', () => {
    expect(parseResourceMigrationArguments(['--api', 'api2', '--change', '--uri', 'https://api2.example/v2', '--served-by', 'api2-v2'])?.request).toEqual({
      kind: 'change-api',
      name: 'api2',
      changes: { uri: 'https://api2.example/v2', servedBy: 'api2-v2' },
    });
    expect(problemOf('--api', 'api2', '--change', '--uri', 'https://api2.example/#x')).toContain('must be an absolute URI without a fragment');
    expect(problemOf('--api', 'api2', '--change', '--served-by', 'api 2')).toContain('--served-by "api 2" must be a client id');
  });

  it('records and restores the URI and serving client, refusing a URI another resource has when applied', () => {
    const { source } = renderResourceMigration(
      { kind: 'change-api', name: 'api2', changes: { uri: 'https://api2.example/v2', servedBy: 'api2-v2' } },
      1_795_000_000_000,
    );
    expect(source).toContain(
      `'SELECT 1 FROM api_resources WHERE resource_uri = $1 AND name <> $2', ["https://api2.example/v2", "api2"])).length > 0) {\n      throw new Error("another API resource already has the URI https://api2.example/v2");`,
    );
    expect(source).toContain("jsonb_build_object('resource_uri', resource_uri, 'serving_client_id', serving_client_id)");
    expect(source).toContain(
      `'UPDATE api_resources SET resource_uri = $2, serving_client_id = $3 WHERE name = $1', ["api2", "https://api2.example/v2", "api2-v2"]`,
    );
    expect(source).toContain(
      `'UPDATE api_resources SET resource_uri = $2, serving_client_id = $3 WHERE name = $1', ["api2", before.settings.resource_uri, before.settings.serving_client_id]`,
    );
    expect(source.indexOf('resource_uri = $1 AND name <> $2')).toBeLessThan(source.indexOf('INSERT INTO api_resource_settings_before_migration'));
  });
});

describe('--open-to-self-registered', () => {
  it('adds a resource open to self-registered clients, and opens or closes an existing one', () => {
    const add = parseResourceMigrationArguments(['--api', 'notes', '--scope', 'notes', '--open-to-self-registered']);
    expect(add?.request).toEqual({ kind: 'api', name: 'notes', scopes: ['notes'], openToSelfRegistered: true });
    expect(renderResourceMigration(add!.request, 1795000000000).source).toContain(
      'INSERT INTO api_resources (name, scopes, resource_uri, serving_client_id, open_to_self_registered) VALUES ($1, $2, $3, $4, true)',
    );
    expect(parseResourceMigrationArguments(['--api', 'notes', '--close-to-self-registered'])?.request).toEqual({
      kind: 'change-api',
      name: 'notes',
      changes: { openToSelfRegistered: false },
    });
    const open = parseResourceMigrationArguments(['--api', 'notes', '--change', '--open-to-self-registered'])!.request;
    expect(open).toEqual({ kind: 'change-api', name: 'notes', changes: { openToSelfRegistered: true } });
    const source = renderResourceMigration(open, 1795000000000).source;
    expect(source).toContain("'open_to_self_registered', open_to_self_registered");
    expect(source).toContain('UPDATE api_resources SET open_to_self_registered = $2 WHERE name = $1');
    expect(problemOf('--api', 'notes', '--open-to-self-registered', '--close-to-self-registered')).toContain('contradict');
  });
});

import { appendToMigrationIndex, renderClientMigration } from './client-migration-source';

const TIMESTAMP = Date.parse('2026-11-23T10:00:00Z');
const HASH = 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=';

describe('renderClientMigration', () => {
  it('names the class and file after the client, ending with the 13-digit timestamp TypeORM orders by', () => {
    const migration = renderClientMigration({ kind: 'change', clientId: 'svc.reports-2', changes: { enabled: false } }, { timestamp: TIMESTAMP });
    expect(migration.className).toBe(`DisableClientSvcReports2${TIMESTAMP}`);
    expect(migration.fileBase).toBe(`${TIMESTAMP}-DisableClientSvcReports2`);
    expect(migration.source).toContain(`name = 'DisableClientSvcReports2${TIMESTAMP}';`);
  });

  it('writes a new client with the hash of its secret, and a down that removes it', () => {
    const { source } = renderClientMigration(
      {
        kind: 'create',
        clientId: 'api3',
        grantTypes: ['delegation'],
        scopes: ['api2'],
        accessTokenLifetimeSeconds: 600,
        refreshTokenLifetimeSeconds: 86_400,
        secretExpiresAt: new Date('2027-01-31T00:00:00Z'),
        secretDescription: 'say "hi" */',
        browser: { public: false, redirectUris: [], postLogoutRedirectUris: [], requireConsent: false, requirePushedAuthorizationRequests: false },
      },
      { timestamp: TIMESTAMP, secretHash: HASH },
    );
    expect(source).toContain(`["api3", ["delegation"], ["api2"], 600, 86400, false, [], [], false, false]`);
    expect(source).toContain(`["api3", "${HASH}", "say \\"hi\\" */", "2027-01-31T00:00:00.000Z"]`);
    expect(source).toContain(
      `if ((await queryRunner.query('SELECT 1 FROM clients WHERE client_id = $1', ["api3"])).length > 0) throw new Error("Client \\"api3\\" already exists`,
    );
    expect(source).toMatch(
      /async down\(queryRunner: QueryRunner\): Promise<void> \{\n {4}\/\/ Its secrets go with it: client_secrets references clients ON DELETE CASCADE\.\n {4}await queryRunner\.query\('DELETE FROM clients WHERE client_id = \$1', \["api3"\]\);\n {2}\}/,
    );
  });

  it('registers a back-channel logout URI with a new client', () => {
    const { source } = renderClientMigration(
      {
        kind: 'create',
        clientId: 'rp',
        grantTypes: ['authorization_code'],
        scopes: ['openid'],
        accessTokenLifetimeSeconds: 600,
        refreshTokenLifetimeSeconds: 86_400,
        browser: {
          public: false,
          redirectUris: ['https://rp.example/cb'],
          postLogoutRedirectUris: [],
          requireConsent: false,
          requirePushedAuthorizationRequests: false,
        },
        backchannelLogout: { uri: 'https://rp.example/logout', sessionRequired: true },
      },
      { timestamp: TIMESTAMP, secretHash: HASH },
    );
    expect(source).toContain(
      `'UPDATE clients SET backchannel_logout_uri = $2, backchannel_logout_session_required = $3 WHERE client_id = $1', ["rp", "https://rp.example/logout", true]`,
    );
    expect(source).toContain('back-channel logout to https://rp.example/logout');
  });

  it('removes a back-channel logout URI, recording it; down puts it back', () => {
    const { source } = renderClientMigration(
      { kind: 'change', clientId: 'rp', changes: { backchannelLogoutUri: null, backchannelLogoutSessionRequired: false } },
      { timestamp: TIMESTAMP },
    );
    expect(source).toContain(
      "jsonb_build_object('backchannel_logout_uri', backchannel_logout_uri, 'backchannel_logout_session_required', backchannel_logout_session_required)",
    );
    expect(source).toContain(
      `'UPDATE clients SET backchannel_logout_uri = $2, backchannel_logout_session_required = $3 WHERE client_id = $1', ["rp", null, false]`,
    );
    expect(source).toContain('before.settings.backchannel_logout_uri, before.settings.backchannel_logout_session_required]');
  });

  it('adds a secret to an existing client; down removes only that secret', () => {
    const { source } = renderClientMigration({ kind: 'add-secret', clientId: 'api3' }, { timestamp: TIMESTAMP, secretHash: HASH });
    expect(source).toContain(`throw new Error("Client \\"api3\\" does not exist")`);
    expect(source).toContain(`["api3", "${HASH}", null, null]`);
    expect(source).toContain(`'DELETE FROM client_secrets WHERE client_id = $1 AND value_hash = $2', ["api3", "${HASH}"]`);
  });

  it('gives the new secret the id it was told, so the operator can name it later', () => {
    const { source } = renderClientMigration(
      { kind: 'add-secret', clientId: 'api3' },
      { timestamp: TIMESTAMP, secretHash: HASH, secretId: '3f2a9c10-7777-4000-8000-000000000001' },
    );
    expect(source).toContain(`'INSERT INTO client_secrets (id, client_id, value_hash, description, expires_at) VALUES ($1, $2, $3, $4, $5)',`);
    expect(source).toContain(`["3f2a9c10-7777-4000-8000-000000000001", "api3", "${HASH}", null, null]`);
  });

  it('ends the secrets created before the cutoff when applied, refusing to leave none; down refuses', () => {
    const { className, source } = renderClientMigration(
      { kind: 'expire-secrets', clientId: 'api3', before: new Date('2026-11-20T08:00:00Z') },
      { timestamp: TIMESTAMP },
    );
    expect(className).toBe(`ExpireClientSecretsApi3${TIMESTAMP}`);
    expect(source).toContain(
      `'UPDATE client_secrets SET expires_at = now() WHERE client_id = $1 AND created_at < $2 AND (expires_at IS NULL OR expires_at > now())',\n      ["api3", "2026-11-20T08:00:00.000Z"],`,
    );
    expect(source).toContain(
      'if (valid.length === 0) throw new Error("This would leave client \\"api3\\" without a valid secret: add one with --add-secret first");',
    );
    expect(source).toContain('throw new Error("Ending secrets cannot be undone by reverting: give client \\"api3\\" a new secret with --add-secret");');
  });

  it('removes exactly one secret by id prefix; down refuses', () => {
    const { source } = renderClientMigration({ kind: 'remove-secret', clientId: 'api3', secretId: '3f2a9c10' }, { timestamp: TIMESTAMP });
    expect(source).toContain(`'SELECT id FROM client_secrets WHERE client_id = $1 AND starts_with(id::text, $2)', ["api3", "3f2a9c10"]`);
    expect(source).toContain(
      'if (matching.length !== 1) throw new Error("Client \\"api3\\" has " + matching.length + " secrets whose id starts with \\"3f2a9c10\\": expected exactly one");',
    );
    expect(source).toContain('Removing a secret cannot be undone by reverting');
  });

  it('disables a client, recording whether it was enabled; down puts that back', () => {
    const { source } = renderClientMigration({ kind: 'change', clientId: 'api3', changes: { enabled: false } }, { timestamp: TIMESTAMP });
    const name = `DisableClientApi3${TIMESTAMP}`;
    expect(source).toContain(
      `"INSERT INTO client_settings_before_migration (migration, client_id, settings) SELECT $1, client_id, jsonb_build_object('enabled', enabled) FROM clients WHERE client_id = $2",\n      ["${name}", "api3"],`,
    );
    expect(source).toContain(`'UPDATE clients SET enabled = $2 WHERE client_id = $1', ["api3", false]`);
    expect(source).toContain(`'SELECT settings FROM client_settings_before_migration WHERE migration = $1', ["${name}"]`);
    expect(source).toContain(`'DELETE FROM client_settings_before_migration WHERE migration = $1', ["${name}"]`);
    expect(source).toContain(`'UPDATE clients SET enabled = $2 WHERE client_id = $1', ["api3", before.settings.enabled]`);
    expect(source).not.toContain('enabled = true');
    expect(source).not.toContain('client_secrets');
  });

  it('sets a delegation policy, recording only the settings it changes', () => {
    const { source } = renderClientMigration({ kind: 'change', clientId: 'frontend', changes: { mayActClientId: 'api1' } }, { timestamp: TIMESTAMP });
    expect(source).toContain("jsonb_build_object('may_act_client_id', may_act_client_id)");
    expect(source).toContain(`'UPDATE clients SET may_act_client_id = $2 WHERE client_id = $1', ["frontend", before.settings.may_act_client_id]`);
    expect(source).not.toContain('transaction_tokens');
  });
});

describe('appendToMigrationIndex', () => {
  const migration = { className: `AddClientApi3${TIMESTAMP}`, fileBase: `${TIMESTAMP}-AddClientApi3` };

  it('refuses an index without the migrations list', () => {
    expect(() => appendToMigrationIndex('export default [];\n', migration)).toThrow('index.ts has no `export const migrations = [...]` list');
  });

  it('adds the import after the last one and the class at the end of a one-line list', () => {
    const index = `import { A1 } from './1-A';
import { B2 } from './2-B';

/** Every migration, oldest first. */
export const migrations = [A1, B2];
`;
    expect(appendToMigrationIndex(index, migration)).toBe(`import { A1 } from './1-A';
import { B2 } from './2-B';
import { AddClientApi3${TIMESTAMP} } from './${TIMESTAMP}-AddClientApi3';

/** Every migration, oldest first. */
export const migrations = [A1, B2, AddClientApi3${TIMESTAMP}];
`);
  });

  it('keeps a multi-line list multi-line', () => {
    const index = `import { A1 } from './1-A';

export const migrations = [
  A1,
];
`;
    expect(appendToMigrationIndex(index, migration)).toBe(`import { A1 } from './1-A';
import { AddClientApi3${TIMESTAMP} } from './${TIMESTAMP}-AddClientApi3';

export const migrations = [
  A1,
  AddClientApi3${TIMESTAMP},
];
`);
  });
});

import { clientChangeAction, renderClientChange } from './client-change';
import { renderClientMigration } from './client-migration-source';
import { requestProblems } from './existing-client-check';
import type { ClientView } from '../inventory/inventory';

const MIGRATION = 'ChangeClientApi31795000000000';

describe('renderClientChange', () => {
  it('records exactly the columns it sets, sets them from parameters, and down puts the recorded values back', () => {
    const { up, down } = renderClientChange('api3', { scopes: ['api1', 'api2'], clientName: 'Reports', requireConsent: true }, MIGRATION);
    expect(up).toContain(
      `  "INSERT INTO client_settings_before_migration (migration, client_id, settings) SELECT $1, client_id, jsonb_build_object('client_name', client_name, 'allowed_scopes', allowed_scopes, 'require_consent', require_consent) FROM clients WHERE client_id = $2",`,
    );
    expect(up).toContain(
      `await queryRunner.query('UPDATE clients SET client_name = $2, allowed_scopes = $3, require_consent = $4 WHERE client_id = $1', ["api3", "Reports", ["api1","api2"], true]);`,
    );
    expect(down).toEqual([
      `const [before] = await queryRunner.query('SELECT settings FROM client_settings_before_migration WHERE migration = $1', ["${MIGRATION}"]);`,
      `if (!before) throw new Error("No record of client \\"api3\\" before ${MIGRATION}: restore its settings by hand");`,
      `await queryRunner.query('UPDATE clients SET client_name = $2, allowed_scopes = $3, require_consent = $4 WHERE client_id = $1', ["api3", before.settings.client_name, before.settings.allowed_scopes, before.settings.require_consent]);`,
      `await queryRunner.query('DELETE FROM client_settings_before_migration WHERE migration = $1', ["${MIGRATION}"]);`,
    ]);
  });

  it('replaces both key sources together, since a client has inline keys or a jwks_uri', () => {
    const { up } = renderClientChange('batch', { jwksUri: 'https://batch.example/jwks' }, MIGRATION);
    expect(up).toContain(
      `await queryRunner.query('UPDATE clients SET jwks = $2, jwks_uri = $3 WHERE client_id = $1', ["batch", null, "https://batch.example/jwks"]);`,
    );
  });

  it('replaces the workload identities, recording the old ones for down, after checking the issuer is registered', () => {
    const { up, down } = renderClientChange('ledger', { workload: { issuer: 'spiffe://prod.example', subject: 'spiffe://prod.example/ledger' } }, MIGRATION);
    expect(up.join('\n')).toContain("SELECT 1 FROM trusted_issuers WHERE issuer = $1 AND role = 'workload'");
    expect(up.join('\n')).toContain("'workload_identities', (SELECT coalesce(jsonb_agg(");
    expect(up).toContain(`await queryRunner.query('DELETE FROM client_workload_identities WHERE client_id = $1', ["ledger"]);`);
    expect(down.join('\n')).toContain('jsonb_to_recordset($2::jsonb)');
    expect(down.join('\n')).toContain('JSON.stringify(before.settings.workload_identities)');
    expect(down.join('\n')).not.toContain('UPDATE clients');
  });

  it('keeps a name with */ from ending the comment the summary is written in', () => {
    const { source } = renderClientMigration({ kind: 'change', clientId: 'api3', changes: { clientName: 'a */ b' } }, { timestamp: 1_795_000_000_000 });
    const comment = source.slice(source.indexOf('/**'), source.indexOf('*/') + 2);
    expect(comment).toContain('client_name "a *\\/ b"');
    expect(source).toContain(`'UPDATE clients SET client_name = $2 WHERE client_id = $1', ["api3", "a */ b"]`);
  });
});

describe('clientChangeAction', () => {
  it('names the change after what it does', () => {
    expect(clientChangeAction({ enabled: false })).toBe('DisableClient');
    expect(clientChangeAction({ enabled: true })).toBe('EnableClient');
    expect(clientChangeAction({ mayActClientId: 'api1', transactionTokens: true })).toBe('SetDelegationPolicy');
    expect(clientChangeAction({ enabled: false, scopes: ['api1'] })).toBe('ChangeClient');
  });
});

describe('requestProblems', () => {
  const existing = {
    clientId: 'spa',
    authentication: 'none',
    grantTypes: ['authorization_code'],
    redirectUris: ['https://a.example/cb'],
  } as unknown as ClientView;

  it('refuses to create a client that exists, naming the change command', () => {
    expect(requestProblems({ kind: 'create', clientId: 'spa' } as never, existing)).toEqual([expect.stringContaining('--client-id spa --change')]);
  });

  it('refuses to change or add a secret to a client that does not exist', () => {
    expect(requestProblems({ kind: 'change', clientId: 'x', changes: { scopes: ['a'] } }, undefined)).toEqual([
      expect.stringMatching(/^Client "x" does not exist: create it with/),
    ]);
    expect(requestProblems({ kind: 'add-secret', clientId: 'x' }, undefined)).toHaveLength(1);
  });

  it('refuses a change that would leave the client unusable', () => {
    expect(requestProblems({ kind: 'change', clientId: 'spa', changes: { redirectUris: [] } }, existing)).toEqual([
      'Client "spa" would use authorization_code without a redirect URI: give --redirect-uri',
    ]);
    expect(requestProblems({ kind: 'change', clientId: 'spa', changes: { grantTypes: ['client_credentials'] } }, existing)).toEqual([
      'Client "spa" is public: it may not use client_credentials, grants that do not serve public clients',
    ]);
    expect(requestProblems({ kind: 'change', clientId: 'spa', changes: { scopes: ['openid'] } }, existing)).toEqual([]);
  });
});

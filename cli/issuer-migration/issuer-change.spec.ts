import { renderIssuerChange } from './issuer-change';
import { parseIssuerMigrationArguments } from './issuer-migration-arguments';

const MIGRATION = 'ChangeTrustedIssuerK8s1795000000000';

describe('parseIssuerMigrationArguments (changes)', () => {
  it('reads --change with keys and a description, and --disable and --enable as changes of enabled', () => {
    expect(
      parseIssuerMigrationArguments(['--change', 'https://k8s.example', '--jwks-uri', 'https://k8s.example/keys', '--description', 'prod'])?.request,
    ).toEqual({
      kind: 'change',
      issuer: 'https://k8s.example',
      changes: { jwksUri: 'https://k8s.example/keys', description: 'prod' },
    });
    expect(parseIssuerMigrationArguments(['--disable', 'spiffe://demo.example'])?.request).toEqual({
      kind: 'change',
      issuer: 'spiffe://demo.example',
      changes: { enabled: false },
    });
    expect(parseIssuerMigrationArguments(['--enable', 'spiffe://demo.example'])?.request).toMatchObject({ changes: { enabled: true } });
  });

  it('refuses a change of nothing', () => {
    expect(() => parseIssuerMigrationArguments(['--change', 'https://k8s.example'])).toThrow('--change needs at least one setting to change');
  });
});

describe('renderIssuerChange', () => {
  it('records what it replaces, replaces both key sources together, and down restores them', () => {
    const { up, down } = renderIssuerChange('https://k8s.example', { jwksUri: 'https://k8s.example/keys', enabled: false }, MIGRATION);
    expect(up.join('\n')).toContain("jsonb_build_object('enabled', enabled, 'jwks', jwks, 'jwks_uri', jwks_uri, 'added_trusted_by', '[]'::jsonb)");
    expect(up).toContain(
      `await queryRunner.query('UPDATE trusted_issuers SET enabled = $2, jwks = $3, jwks_uri = $4 WHERE issuer = $1', ["https://k8s.example", false, null, "https://k8s.example/keys"]);`,
    );
    expect(up).toContain(
      `if (!registered) throw new Error("Trusted issuer \\"https://k8s.example\\" is not registered: add it first with npm run issuer:migration");`,
    );
    expect(down).toContain(
      `await queryRunner.query('UPDATE trusted_issuers SET enabled = $2, jwks = $3, jwks_uri = $4 WHERE issuer = $1', ["https://k8s.example", before.settings.enabled, before.settings.jwks, before.settings.jwks_uri]);`,
    );
  });

  it('requires a subject issuer for subject settings, and removes on down only the trusting clients it added', () => {
    const { up, down } = renderIssuerChange('https://idp.example', { subject: { audience: 'api2', trustedBy: ['gateway'] } }, MIGRATION);
    expect(up.join('\n')).toContain("if (registered?.role !== 'subject')");
    expect(up.join('\n')).toContain('ON CONFLICT DO NOTHING RETURNING client_id');
    expect(down.join('\n')).toContain(
      'DELETE FROM client_subject_issuers WHERE issuer = $1 AND client_id = ANY($2::text[])\', ["https://idp.example", before.settings.added_trusted_by ?? []]',
    );
  });
});

import { CrossDomainUsageError, isCrossDomainRequest, parseCrossDomainArguments } from './cross-domain-arguments';
import { renderCrossDomainMigration } from './cross-domain-source';

describe('issuer:migration --authorization-grant and --partner', () => {
  it('reads an authorization-grant issuer with its defaults', () => {
    const { request } = parseCrossDomainArguments([
      '--authorization-grant',
      'https://idp.example.com',
      '--jwks-uri',
      'https://idp.example.com/jwks',
      '--trusted-by',
      'agent',
    ]);
    expect(request).toEqual({
      kind: 'authorization-grant',
      issuer: 'https://idp.example.com',
      jwksFile: undefined,
      jwksUri: 'https://idp.example.com/jwks',
      userClaim: 'sub',
      identityScopes: [],
      maxLifetimeSeconds: 300,
      trustedBy: ['agent'],
      description: undefined,
    });
  });

  it('reads a partner with our clients and their ids there', () => {
    const { request } = parseCrossDomainArguments([
      '--partner',
      'https://as.partner.example',
      '--client',
      'webapp=webapp-at-partner',
      '--resource',
      'https://api.partner.example/',
    ]);
    expect(request).toMatchObject({ kind: 'partner', clientIds: { webapp: 'webapp-at-partner' }, resources: ['https://api.partner.example/'] });
  });

  it.each([
    [['--authorization-grant', 'https://idp.example.com'], 'or at least one of --user-claim, --identity-scope, --max-lifetime and --trusted-by to change it'],
    [
      ['--authorization-grant', 'https://idp.example.com', '--jwks-file', 'k.json', '--jwks-uri', 'https://idp.example.com/jwks', '--trusted-by', 'a'],
      'at most one of --jwks-file and --jwks-uri',
    ],
    [['--authorization-grant', 'https://idp.example.com', '--max-lifetime', '60', '--description', 'x'], '--change <issuer> --description'],
    [['--authorization-grant', 'https://idp.example.com', '--max-lifetime', '1.5'], '--max-lifetime must be 1 to 86400 seconds'],
    [['--authorization-grant', 'https://idp.example.com', '--jwks-uri', 'https://idp.example.com/jwks'], '--trusted-by'],
    [
      ['--authorization-grant', 'https://idp.example.com', '--jwks-uri', 'https://idp.example.com/jwks', '--trusted-by', 'a', '--max-lifetime', '0'],
      '--max-lifetime',
    ],
    [['--authorization-grant', 'ftp://idp', '--jwks-uri', 'https://idp.example.com/jwks', '--trusted-by', 'a'], 'https URL'],
    [['--partner', 'https://as.example', '--client', 'webapp'], '<our client_id>=<its client_id there>'],
    [['--partner', 'https://as.example', '--client', 'a=b', '--trusted-by', 'x'], 'goes only with --authorization-grant'],
    [['--partner', 'https://as.example', '--change'], '--change needs at least one of --client, --remove-client, --resource and --description'],
    [['--partner', 'https://as.example', '--change', '--client', 'a=b', '--remove-client', 'a'], '--client and --remove-client both name a'],
    [['--partner', 'https://as.example', '--client', 'a=b', '--remove-client', 'c'], '--remove-client goes only with --partner <registered issuer> --change'],
    [['--authorization-grant', 'https://idp.example.com', '--change', '--max-lifetime', '60'], '--change goes only with --partner'],
  ])('refuses %j', (argv, named) => {
    expect(() => parseCrossDomainArguments(argv)).toThrow(CrossDomainUsageError);
    expect(() => parseCrossDomainArguments(argv)).toThrow(named);
  });

  it('is chosen by its flags only', () => {
    expect(isCrossDomainRequest(['--partner', 'https://as.example'])).toBe(true);
    expect(isCrossDomainRequest(['--subject', 'https://idp.example.com'])).toBe(false);
  });

  it('renders a migration whose up inserts the issuer, its settings and its clients, and whose down removes it', () => {
    const { request } = parseCrossDomainArguments([
      '--authorization-grant',
      'https://idp.example.com',
      '--jwks-uri',
      'https://idp.example.com/jwks',
      '--trusted-by',
      'agent',
      '--user-claim',
      'email',
    ]);
    const migration = renderCrossDomainMigration(request, 1_800_000_000_000);
    expect(migration.className).toBe('AddAuthorizationGrantIssuerIdpExampleCom1800000000000');
    expect(migration.source).toContain("'authorization-grant', 'jwt'");
    expect(migration.source).toContain('INSERT INTO client_authorization_grant_issuers');
    expect(migration.source).toContain('DELETE FROM trusted_issuers WHERE issuer = $1\', ["https://idp.example.com"]');
  });

  it('reads --authorization-grant without keys as a change of the settings given', () => {
    const { request } = parseCrossDomainArguments(['--authorization-grant', 'https://idp.example.com', '--max-lifetime', '60', '--trusted-by', 'agent']);
    expect(request).toEqual({
      kind: 'authorization-grant-change',
      issuer: 'https://idp.example.com',
      userClaim: undefined,
      identityScopes: undefined,
      maxLifetimeSeconds: 60,
      trustedBy: ['agent'],
    });
  });

  it('renders a change that records what it replaces, and whose down restores it and removes only the clients it added', () => {
    const { request } = parseCrossDomainArguments(['--authorization-grant', 'https://idp.example.com', '--identity-scope', 'openid', '--trusted-by', 'agent']);
    const migration = renderCrossDomainMigration(request, 1_800_000_000_000);
    expect(migration.className).toBe('ChangeAuthorizationGrantIssuerIdpExampleCom1800000000000');
    expect(migration.source).toContain(
      "jsonb_build_object('identity_scopes', identity_scopes, 'added_trusted_by', '[]'::jsonb) FROM authorization_grant_issuers",
    );
    expect(migration.source).toContain(
      'UPDATE authorization_grant_issuers SET identity_scopes = $2 WHERE issuer = $1\', ["https://idp.example.com", ["openid"]]',
    );
    expect(migration.source).toContain(
      'INSERT INTO client_authorization_grant_issuers (client_id, issuer) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING',
    );
    expect(migration.source).toContain('DELETE FROM client_authorization_grant_issuers WHERE issuer = $1 AND client_id = ANY($2::text[])');
    expect(migration.source).not.toContain('max_lifetime_seconds');
  });

  it('renders a partner change that records every client mapping, and whose down restores the ones it touched', () => {
    const { request } = parseCrossDomainArguments(['--partner', 'https://as.example', '--change', '--client', 'api1=renamed', '--remove-client', 'webapp']);
    expect(request).toEqual({
      kind: 'partner-change',
      issuer: 'https://as.example',
      resources: undefined,
      clientIds: { api1: 'renamed' },
      removedClients: ['webapp'],
      description: undefined,
    });
    const { className, source } = renderCrossDomainMigration(request, 1_800_000_000_000);
    expect(className).toBe('ChangePartnerAuthorizationServerAsExample1800000000000');
    expect(source).toContain('INSERT INTO partner_settings_before_migration (migration, issuer, settings)');
    expect(source).toContain('jsonb_object_agg(c.client_id, c.partner_client_id)');
    expect(source).toContain(
      'ON CONFLICT (issuer, client_id) DO UPDATE SET partner_client_id = EXCLUDED.partner_client_id", ["https://as.example", "api1", "renamed"]',
    );
    expect(source).toContain('for (const clientId of ["api1","webapp"])');
    expect(source).not.toContain('UPDATE partner_authorization_servers SET');
  });
});

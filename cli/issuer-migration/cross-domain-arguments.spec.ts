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
    [['--authorization-grant', 'https://idp.example.com', '--trusted-by', 'agent'], 'exactly one of --jwks-file and --jwks-uri'],
    [['--authorization-grant', 'https://idp.example.com', '--jwks-uri', 'https://idp.example.com/jwks'], '--trusted-by'],
    [
      ['--authorization-grant', 'https://idp.example.com', '--jwks-uri', 'https://idp.example.com/jwks', '--trusted-by', 'a', '--max-lifetime', '0'],
      '--max-lifetime',
    ],
    [['--authorization-grant', 'ftp://idp', '--jwks-uri', 'https://idp.example.com/jwks', '--trusted-by', 'a'], 'https URL'],
    [['--partner', 'https://as.example', '--client', 'webapp'], '<our client_id>=<its client_id there>'],
    [['--partner', 'https://as.example', '--client', 'a=b', '--trusted-by', 'x'], 'goes only with --authorization-grant'],
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
});

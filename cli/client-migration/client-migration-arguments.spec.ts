import { ClientMigrationUsageError, parseClientMigrationArguments } from './client-migration-arguments';

const NOW = new Date('2026-11-01T00:00:00Z');
const parse = (...argv: string[]) => parseClientMigrationArguments(argv, NOW);

function problemOf(...argv: string[]): string {
  try {
    parse(...argv);
  } catch (error) {
    if (error instanceof ClientMigrationUsageError) return error.message;
    throw error;
  }
  throw new Error('expected a ClientMigrationUsageError');
}

describe('parseClientMigrationArguments', () => {
  it.each([
    [['--grant', 'delegation', '--scope', 'api2'], '--client-id is required'],
    [
      ['--client-id=-api3', '--grant', 'delegation', '--scope', 'api2'],
      '--client-id "-api3" must be 1 to 100 characters: letters, digits and . _ ~ -, starting with a letter or digit',
    ],
    [
      ['--client-id', 'api 3', '--grant', 'delegation', '--scope', 'api2'],
      '--client-id "api 3" must be 1 to 100 characters: letters, digits and . _ ~ -, starting with a letter or digit',
    ],
    [['--client-id', 'api3', '--scope', 'api2'], '--grant is required when creating a client (at least one grant type)'],
    [
      ['--client-id', 'api3', '--grant', 'implicit', '--scope', 'api2'],
      expect.stringMatching(
        /^--grant "implicit" is not a grant type Tollgate serves \(authorization_code, client_credentials, password, refresh_token, delegation, urn:ietf:params:oauth:grant-type:token-exchange\)/,
      ),
    ],
    [
      ['--client-id', 'spa2', '--grant', 'authorization_code', '--scope', 'openid'],
      '--redirect-uri is required with the authorization_code grant (at least one)',
    ],
    [
      ['--client-id', 'spa2', '--public', '--grant', 'authorization_code,client_credentials', '--scope', 'openid', '--redirect-uri', 'https://app.example/cb'],
      '--public clients may not use client_credentials: those grants do not serve public clients',
    ],
    [
      [
        '--client-id',
        'spa2',
        '--public',
        '--grant',
        'authorization_code',
        '--scope',
        'openid',
        '--redirect-uri',
        'https://app.example/cb',
        '--expires',
        '2027-01-01',
      ],
      '--expires does not apply to --public: a public client has no secret',
    ],
    [
      ['--client-id', 'api3', '--grant', 'client_credentials', '--scope', 'api2', '--redirect-uri', 'https://app.example/cb'],
      '--redirect-uri applies only with --grant authorization_code',
    ],
    [['--client-id', 'api3', '--grant', 'client_credentials', '--scope', 'api2', '--consent'], '--consent applies only with --grant authorization_code'],
    [
      ['--client-id', 'api3', '--grant', 'client_credentials', '--scope', 'api2', '--require-par'],
      '--require-par applies only with --grant authorization_code',
    ],
    [
      ['--client-id', 'spa2', '--grant', 'authorization_code', '--scope', 'openid', '--redirect-uri', 'http://app.example/cb'],
      expect.stringMatching(/^--redirect-uri "http:\/\/app.example\/cb" must be an absolute https URI \(http only for 127\.0\.0\.1/),
    ],
    [
      ['--client-id', 'spa2', '--grant', 'authorization_code', '--scope', 'openid', '--redirect-uri', 'https://app.example/cb#x'],
      expect.stringMatching(/^--redirect-uri "https:\/\/app.example\/cb#x" must be/),
    ],
    [
      ['--client-id', 'spa2', '--grant', 'authorization_code', '--scope', 'openid', '--redirect-uri', '/callback'],
      expect.stringMatching(/^--redirect-uri "\/callback" must be/),
    ],
    [
      [
        '--client-id',
        'spa2',
        '--grant',
        'authorization_code',
        '--scope',
        'openid',
        '--redirect-uri',
        'https://a.example/cb',
        '--post-logout-redirect-uri',
        'javascript:alert(1)',
      ],
      expect.stringMatching(/^--post-logout-redirect-uri "javascript:alert\(1\)" must be/),
    ],
    [['--client-id', 'api3', '--add-secret', '--public'], '--public applies only when creating a client'],
    [['--client-id', 'api3', '--grant', 'delegation'], '--scope is required when creating a client (at least one scope)'],
    [['--client-id', 'api3', '--grant', 'delegation', '--scope', 'api"2'], '--scope "api"2" is not a valid scope token (RFC 6749 §3.3)'],
    [
      ['--client-id', 'api3', '--grant', 'delegation', '--scope', 'api2', '--access-token-lifetime', '0'],
      '--access-token-lifetime must be a number of seconds from 1 to 31536000',
    ],
    [
      ['--client-id', 'api3', '--grant', 'delegation', '--scope', 'api2', '--refresh-token-lifetime', '1h'],
      '--refresh-token-lifetime must be a number of seconds from 1 to 31536000',
    ],
    [
      ['--client-id', 'api3', '--grant', 'delegation', '--scope', 'api2', '--expires', 'next week'],
      '--expires "next week" must be an ISO 8601 date or date-time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z',
    ],
    [['--client-id', 'api3', '--grant', 'delegation', '--scope', 'api2', '--expires', '2026-10-31'], '--expires 2026-10-31T00:00:00.000Z is not in the future'],
    [['--client-id', 'api3', '--add-secret', '--disable'], '--add-secret and --disable cannot be combined: write one migration for each'],
    [['--client-id', 'api3', '--add-secret', '--scope', 'api2'], '--scope applies only when creating or changing a client'],
    [['--client-id', 'api3', '--disable', '--expires', '2027-01-01'], '--expires does not apply to --disable'],
    [
      ['--client-id', 'api3', '--add-secret', '--remove-secret', 'deadbeef'],
      '--add-secret and --remove-secret cannot be combined: write one migration for each',
    ],
    [['--client-id', 'api3', '--expire-secrets-before', '2026-10-01', '--expires', '2027-01-01'], '--expires does not apply to --expire-secrets-before'],
    [
      ['--client-id', 'api3', '--expire-secrets-before', 'yesterday'],
      '--expire-secrets-before "yesterday" must be an ISO 8601 date or date-time, e.g. 2027-01-31T12:00:00Z',
    ],
    [
      ['--client-id', 'api3', '--expire-secrets-before', '2026-11-02'],
      '--expire-secrets-before 2026-11-02T00:00:00.000Z is in the future: it would end secrets not yet handed over',
    ],
    [['--client-id', 'api3', '--remove-secret', 'dead'], '--remove-secret "dead" must be a secret id (a UUID) or its first 8 or more characters'],
    [['--client-id', 'api3', '--remove-secret', "deadbeef'"], `--remove-secret "deadbeef'" must be a secret id (a UUID) or its first 8 or more characters`],
    [['--client-id', 'api3', '--grant', 'delegation', '--scope', 'api2', '--secret', 'mine'], expect.stringContaining("Unknown option '--secret'")],
    [['--client-id', 'api3', 'extra'], expect.stringContaining("Unexpected argument 'extra'")],
  ])('refuses %j', (argv, problem) => {
    expect(problemOf(...argv)).toEqual(problem);
  });

  it.each([
    [['--client-id', 'frontend', '--may-act', 'api 1'], '--may-act "api 1" must be a client id: 1 to 100 characters, letters, digits and . _ ~ -'],
    [
      ['--client-id', 'frontend', '--add-secret', '--may-act', 'api1'],
      '--may-act and --transaction-tokens apply when creating or changing a client, not with --add-secret, --expire-secrets-before, --remove-secret or --disable',
    ],
    [['--client-id', 'frontend', '--transaction-tokens', '--expires', '2027-01-01'], '--expires does not apply to changing an existing client'],
  ])('refuses the delegation policy flags in %j', (argv, problem) => {
    expect(problemOf(...argv)).toEqual(problem);
  });

  it('reads --may-act and --transaction-tokens when creating a client, and alone as a change of an existing one', () => {
    expect(
      parse('--client-id', 'gw', '--grant', 'urn:ietf:params:oauth:grant-type:token-exchange', '--scope', 'api1', '--transaction-tokens')?.request,
    ).toMatchObject({
      kind: 'create',
      delegation: { transactionTokens: true },
    });
    expect(parse('--client-id', 'frontend', '--may-act', 'api1')?.request).toEqual({
      kind: 'change',
      clientId: 'frontend',
      changes: { mayActClientId: 'api1' },
    });
  });

  it('reports every problem at once', () => {
    expect(problemOf('--client-id', 'a b', '--grant', 'implicit').split('\n')).toHaveLength(3);
  });

  it('returns nothing for --help', () => {
    expect(parse('--help')).toBeUndefined();
  });

  it('reads a new client with repeated or listed grants and scopes, defaulting the lifetimes and the output', () => {
    expect(
      parse('--client-id', 'api3', '--grant', 'delegation', '--grant', 'client_credentials,delegation', '--scope', 'api2 openid', '--scope', 'api1'),
    ).toEqual({
      request: {
        kind: 'create',
        clientId: 'api3',
        grantTypes: ['delegation', 'client_credentials'],
        scopes: ['api2', 'openid', 'api1'],
        accessTokenLifetimeSeconds: 3600,
        refreshTokenLifetimeSeconds: 2_592_000,
        secretExpiresAt: undefined,
        secretDescription: undefined,
        browser: { public: false, redirectUris: [], postLogoutRedirectUris: [], requireConsent: false, requirePushedAuthorizationRequests: false },
      },
      outDir: 'migrations',
      updateIndex: true,
      offline: false,
    });
  });

  it('reads a public browser client with its redirect URIs, and a confidential one that requires consent', () => {
    const spa = parse(
      '--client-id',
      'spa2',
      '--public',
      '--grant',
      'authorization_code',
      '--grant',
      'refresh_token',
      '--scope',
      'openid offline_access',
      '--redirect-uri',
      'https://app.example/cb',
      '--redirect-uri',
      'http://127.0.0.1:8080/cb',
      '--redirect-uri',
      'com.example.app:/cb',
      '--post-logout-redirect-uri',
      'https://app.example/',
    );
    expect(spa?.request).toMatchObject({
      grantTypes: ['authorization_code', 'refresh_token'],
      browser: {
        public: true,
        redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb', 'com.example.app:/cb'],
        postLogoutRedirectUris: ['https://app.example/'],
        requireConsent: false,
        requirePushedAuthorizationRequests: false,
      },
    });
    const partner = parse(
      '--client-id',
      'partner',
      '--grant',
      'authorization_code',
      '--scope',
      'openid',
      '--redirect-uri',
      'https://partner.example/cb',
      '--consent',
      '--require-par',
    );
    expect(partner?.request).toMatchObject({
      browser: {
        public: false,
        redirectUris: ['https://partner.example/cb'],
        postLogoutRedirectUris: [],
        requireConsent: true,
        requirePushedAuthorizationRequests: true,
      },
    });
  });

  it('reads --require-dpop when creating a client, and --require-dpop / --no-require-dpop when changing one', () => {
    expect(parse('--client-id', 'gw', '--grant', 'client_credentials', '--scope', 'api1', '--require-dpop')?.request).toMatchObject({
      kind: 'create',
      requireDpop: true,
    });
    expect(parse('--client-id', 'gw', '--grant', 'client_credentials', '--scope', 'api1')?.request).not.toHaveProperty('requireDpop');
    expect(parse('--client-id', 'gw', '--change', '--require-dpop')?.request).toEqual({ kind: 'change', clientId: 'gw', changes: { requireDpop: true } });
    expect(parse('--client-id', 'gw', '--change', '--no-require-dpop')?.request).toEqual({ kind: 'change', clientId: 'gw', changes: { requireDpop: false } });
    expect(() => parse('--client-id', 'gw', '--change', '--require-dpop', '--no-require-dpop')).toThrow(
      '--require-dpop and --no-require-dpop contradict each other',
    );
  });

  it('reads --require-phr when creating a client, and --require-phr / --no-require-phr when changing one', () => {
    expect(
      parse('--client-id', 'app', '--public', '--grant', 'authorization_code', '--scope', 'openid', '--redirect-uri', 'https://app.example/cb', '--require-phr')
        ?.request,
    ).toMatchObject({
      kind: 'create',
      requirePhr: true,
    });
    expect(parse('--client-id', 'app', '--change', '--require-phr')?.request).toEqual({ kind: 'change', clientId: 'app', changes: { requirePhr: true } });
    expect(parse('--client-id', 'app', '--change', '--no-require-phr')?.request).toEqual({ kind: 'change', clientId: 'app', changes: { requirePhr: false } });
    expect(() => parse('--client-id', 'app', '--change', '--require-phr', '--no-require-phr')).toThrow(
      '--require-phr and --no-require-phr contradict each other',
    );
  });

  it('reads a back-channel logout URI when creating a client, and changes or removes it', () => {
    const create = ['--client-id', 'rp', '--grant', 'authorization_code', '--scope', 'openid', '--redirect-uri', 'https://rp.example/cb'];
    expect(parse(...create, '--backchannel-logout-uri', 'https://rp.example/logout', '--backchannel-logout-session-required')?.request).toMatchObject({
      kind: 'create',
      backchannelLogout: { uri: 'https://rp.example/logout', sessionRequired: true },
    });
    expect(parse(...create, '--backchannel-logout-uri', 'http://127.0.0.1:5174/backchannel-logout')?.request).toMatchObject({
      backchannelLogout: { uri: 'http://127.0.0.1:5174/backchannel-logout', sessionRequired: false },
    });
    expect(parse(...create)?.request).not.toHaveProperty('backchannelLogout');
    expect(parse('--client-id', 'rp', '--change', '--backchannel-logout-uri', 'https://rp.example/bc')?.request).toEqual({
      kind: 'change',
      clientId: 'rp',
      changes: { backchannelLogoutUri: 'https://rp.example/bc' },
    });
    expect(parse('--client-id', 'rp', '--no-backchannel-logout')?.request).toEqual({
      kind: 'change',
      clientId: 'rp',
      changes: { backchannelLogoutUri: null, backchannelLogoutSessionRequired: false },
    });
  });

  it.each([
    ['http://rp.example/logout', 'must be https'],
    ['https://user:pw@rp.example/logout', 'must not carry user information'],
    ['https://rp.example/logout#x', 'must not have a fragment'],
    ['/logout', 'must be an absolute URL'],
  ])('refuses the back-channel logout URI %s', (uri, problem) => {
    expect(() => parse('--client-id', 'rp', '--change', '--backchannel-logout-uri', uri)).toThrow(problem);
  });

  it('refuses --backchannel-logout-session-required without a URI when creating', () => {
    expect(() =>
      parse(
        '--client-id',
        'rp',
        '--grant',
        'authorization_code',
        '--scope',
        'openid',
        '--redirect-uri',
        'https://rp.example/cb',
        '--backchannel-logout-session-required',
      ),
    ).toThrow('--backchannel-logout-session-required applies only with --backchannel-logout-uri');
  });

  it('accepts an extension grant by its absolute URI, and every option', () => {
    const command = parse(
      '--client-id',
      'svc.reports_2',
      '--grant',
      'urn:example:grant:custom',
      '--scope',
      'api1',
      '--access-token-lifetime',
      '600',
      '--refresh-token-lifetime',
      '86400',
      '--expires',
      '2027-01-31',
      '--description',
      'reporting service',
      '--out-dir',
      '/tmp/m',
      '--no-index',
    );
    expect(command).toEqual({
      request: {
        kind: 'create',
        clientId: 'svc.reports_2',
        grantTypes: ['urn:example:grant:custom'],
        scopes: ['api1'],
        accessTokenLifetimeSeconds: 600,
        refreshTokenLifetimeSeconds: 86_400,
        secretExpiresAt: new Date('2027-01-31T00:00:00Z'),
        secretDescription: 'reporting service',
        browser: { public: false, redirectUris: [], postLogoutRedirectUris: [], requireConsent: false, requirePushedAuthorizationRequests: false },
      },
      outDir: '/tmp/m',
      updateIndex: false,
      offline: false,
    });
  });

  it('reads --add-secret with an expiry, and --disable', () => {
    expect(parse('--client-id', 'api3', '--add-secret', '--expires', '2027-01-31T12:00:00Z')?.request).toEqual({
      kind: 'add-secret',
      clientId: 'api3',
      secretExpiresAt: new Date('2027-01-31T12:00:00Z'),
      secretDescription: undefined,
    });
    expect(parse('--client-id', 'api3', '--disable')?.request).toEqual({ kind: 'change', clientId: 'api3', changes: { enabled: false } });
  });

  it('reads --expire-secrets-before and --remove-secret (an id or a prefix, in lower case)', () => {
    expect(parse('--client-id', 'api3', '--expire-secrets-before', '2026-10-31T12:00:00Z')?.request).toEqual({
      kind: 'expire-secrets',
      clientId: 'api3',
      before: new Date('2026-10-31T12:00:00Z'),
    });
    expect(parse('--client-id', 'api3', '--remove-secret', '3F2A9C10-77')?.request).toEqual({
      kind: 'remove-secret',
      clientId: 'api3',
      secretId: '3f2a9c10-77',
    });
  });

  it('writes to the default directory it is given (MIGRATIONS_OUT_DIR of the tollgate command) unless --out-dir', () => {
    expect(parseClientMigrationArguments(['--client-id', 'api3', '--disable'], NOW, '/migrations')?.outDir).toBe('/migrations');
    expect(parseClientMigrationArguments(['--client-id', 'api3', '--disable', '--out-dir', 'here'], NOW, '/migrations')?.outDir).toBe('here');
  });
});

describe('parseClientMigrationArguments --change', () => {
  const changeOf = (...argv: string[]) => parseClientMigrationArguments(['--client-id', 'api3', ...argv], new Date('2026-11-23T10:00:00Z'))?.request;
  const refusal = (...argv: string[]) => {
    try {
      parseClientMigrationArguments(['--client-id', 'api3', ...argv]);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };

  it('refuses a change of nothing, contradictions, --public and secret options', () => {
    expect(refusal('--change')).toBe('--change needs at least one setting to change (see the options of --change below)');
    expect(refusal('--change', '--consent', '--no-consent')).toBe('--consent and --no-consent contradict each other');
    expect(refusal('--enable', '--disable')).toBe('--enable and --disable contradict each other');
    expect(refusal('--change', '--public')).toContain('--public applies only when creating a client');
    expect(refusal('--change', '--scope', 'api1', '--expires', '2099-01-01')).toBe('--expires does not apply to changing an existing client');
    expect(refusal('--change', '--name', 'two\nlines')).toBe('--name must be one line of 1 to 200 characters');
    expect(refusal('--add-secret', '--no-consent')).toBe('--no-consent applies only when changing a client');
    expect(changeOf('--no-consent')).toEqual({ kind: 'change', clientId: 'api3', changes: { requireConsent: false } });
  });

  it('reads only the settings given, each checked as when creating', () => {
    expect(
      changeOf('--change', '--scope', 'api1 api2', '--grant', 'client_credentials', '--name', 'Reports', '--no-consent', '--access-token-lifetime', '60'),
    ).toEqual({
      kind: 'change',
      clientId: 'api3',
      changes: { scopes: ['api1', 'api2'], grantTypes: ['client_credentials'], clientName: 'Reports', requireConsent: false, accessTokenLifetimeSeconds: 60 },
    });
    expect(changeOf('--enable')).toEqual({ kind: 'change', clientId: 'api3', changes: { enabled: true } });
    expect(changeOf('--change', '--workload', 'spiffe://prod.example/ledger')).toEqual({
      kind: 'change',
      clientId: 'api3',
      changes: { workload: { issuer: 'spiffe://prod.example', subject: 'spiffe://prod.example/ledger' } },
    });
    expect(refusal('--change', '--redirect-uri', 'http://example.com/cb')).toContain('--redirect-uri "http://example.com/cb" must be an absolute https URI');
  });

  it('takes a display name when creating a client', () => {
    expect(changeOf('--grant', 'client_credentials', '--scope', 'api1', '--name', 'Reports <b>')).toMatchObject({ kind: 'create', clientName: 'Reports <b>' });
  });
});

import { checkSubjectIssuerChanges, checkSubjectIssuerSettings } from './subject-issuer-arguments';

describe('checkSubjectIssuerSettings', () => {
  const check = (flags: Parameters<typeof checkSubjectIssuerSettings>[0]) => {
    const problems: string[] = [];
    return { settings: checkSubjectIssuerSettings(flags, problems), problems };
  };

  it('requires the audience and the user claim', () => {
    expect(check({}).problems).toEqual([
      '--audience <the aud its tokens carry for Tollgate> is required with --subject',
      '--user-claim <the claim that names the local user, e.g. email> is required with --subject',
    ]);
  });

  it('bounds the audience to 200 printable characters without spaces', () => {
    expect(check({ audience: 'a'.repeat(200), 'user-claim': 'email' }).problems).toEqual([]);
    expect(check({ audience: 'a'.repeat(201), 'user-claim': 'email' }).problems).toEqual([
      `--audience "${'a'.repeat(200)}" must be 1 to 200 printable characters without spaces`,
    ]);
    expect(check({ audience: 'api\u00a01', 'user-claim': 'email' }).problems).toHaveLength(1);
    expect(check({ audience: '', 'user-claim': 'email' }).problems).toHaveLength(1);
  });

  it('takes a claim name of at most 64 characters that describes the user, not the token', () => {
    expect(check({ audience: 'api1', 'user-claim': `e${'x'.repeat(63)}` }).problems).toEqual([]);
    expect(check({ audience: 'api1', 'user-claim': `e${'x'.repeat(64)}` }).problems).toEqual([expect.stringContaining('must be a claim name')]);
    expect(check({ audience: 'api1', 'user-claim': '1st' }).problems).toEqual([expect.stringContaining('must be a claim name')]);
    for (const claim of ['sub', 'iss', 'aud', 'exp', 'jti', 'client_id', 'may_act']) {
      expect(check({ audience: 'api1', 'user-claim': claim }).problems).toEqual([
        `--user-claim "${claim}" describes the token, not the user: use a claim both sides hold, e.g. email`,
      ]);
    }
  });

  it('reads identity scopes repeated or space-separated, once each, at most 20', () => {
    expect(check({ audience: 'api1', 'user-claim': 'email', 'identity-scope': ['openid profile', 'email', 'openid'] }).settings.identityScopes).toEqual([
      'openid',
      'profile',
      'email',
    ]);
    const many = Array.from({ length: 21 }, (_, index) => `scope${index}`);
    expect(check({ audience: 'api1', 'user-claim': 'email', 'identity-scope': many }).problems).toEqual(['at most 20 --identity-scope']);
    expect(check({ audience: 'api1', 'user-claim': 'email', 'identity-scope': ['"quoted"'] }).problems).toEqual([
      '--identity-scope ""quoted"" is not a valid scope token (RFC 6749 §3.3)',
    ]);
  });

  it('takes at most 50 trusting clients with valid client ids', () => {
    const many = Array.from({ length: 51 }, (_, index) => `client-${index}`);
    expect(check({ audience: 'api1', 'user-claim': 'email', 'trusted-by': many }).problems).toEqual(['at most 50 --trusted-by']);
    expect(check({ audience: 'api1', 'user-claim': 'email', 'trusted-by': ['api1', 'api1', '-x'] })).toEqual({
      settings: { audience: 'api1', userClaim: 'email', identityScopes: [], trustedBy: ['api1', '-x'] },
      problems: ['--trusted-by "-x" must be a client id: 1 to 100 characters, letters, digits and . _ ~ -'],
    });
  });
});

describe('checkSubjectIssuerChanges', () => {
  it('changes only what is given; an identity scope list given replaces the whole list', () => {
    const problems: string[] = [];
    expect(checkSubjectIssuerChanges({ 'trusted-by': ['gateway'] }, problems)).toEqual({ audience: undefined, userClaim: undefined, trustedBy: ['gateway'] });
    expect(checkSubjectIssuerChanges({ 'identity-scope': ['openid'] }, problems)).toEqual({
      audience: undefined,
      userClaim: undefined,
      identityScopes: ['openid'],
      trustedBy: [],
    });
    expect(problems).toEqual([]);
  });
});

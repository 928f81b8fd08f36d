import { OAuthError, type AuthorizationGrantIssuer, type Client, type GrantContext, type GrantValidator, type User } from '../../index';
import { JwtBearerGrantValidator } from './jwt-bearer.grant-validator';

const ISSUER: AuthorizationGrantIssuer = {
  issuer: 'https://idp.example',
  userClaim: 'email',
  identityScopes: ['openid'],
  maxLifetimeSeconds: 300,
  trustedBy: ['agent'],
};
const NOW = 1_800_000_000;
const ALICE: User = { subjectId: '1', username: 'alice', enabled: true, claims: { email: 'alice@example.com' }, roles: [] } as unknown as User;

/** An unsigned stand-in: the fake issuer "verifies" by decoding, so each test states its claims. */
const assertion = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'ES256' }) =>
  [header, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.c2ln';
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: ISSUER.issuer,
  sub: 'idp|alice',
  email: 'alice@example.com',
  aud: 'https://as.example',
  iat: NOW,
  exp: NOW + 60,
  jti: 'j1',
  ...extra,
});

function setUp() {
  const used = new Set<string>();
  const firstUse = jest.fn(async (scope: string, jti: string) => !used.has(`${scope} ${jti}`) && Boolean(used.add(`${scope} ${jti}`)));
  const issuers = {
    audience: 'https://as.example',
    find: async (iss: string) => (iss === ISSUER.issuer ? ISSUER : undefined),
    verifySignature: async (jws: string) => {
      const [header, payload] = jws
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
      return { header, claims: payload };
    },
  };
  const users = {
    findBySubjectId: async () => undefined,
    findByClaim: async (_name: string, value: string) => (value === 'alice@example.com' ? ALICE : undefined),
  };
  const validator = new JwtBearerGrantValidator(issuers, { firstUse }, users);
  const context = {
    client: { clientId: 'agent', allowedScopes: ['openid', 'api1'] } as unknown as Client,
    scopes: { names: ['openid', 'api1'], explicit: false },
    resources: { isIdentityScope: (scope: string) => scope === 'openid', audiencesFor: () => ['api1'], apiResourceByUri: () => undefined },
    receivedAt: NOW * 1000,
  } as unknown as GrantContext;
  return { validator, context, firstUse };
}

describe('JwtBearerGrantValidator', () => {
  it('declares what it may be used for: no public clients, no refresh tokens, a sign-in', () => {
    const { validator } = setUp();
    expect(validator).toMatchObject({ grantType: 'urn:ietf:params:oauth:grant-type:jwt-bearer', signsIn: true });
    const policy: GrantValidator = validator;
    expect(policy.publicClients).toBeUndefined();
    expect(policy.refreshTokens).toBeUndefined();
  });

  it("answers the mapped user, the scopes, and the assertion's auth_time", async () => {
    const { validator, context } = setUp();
    await expect(validator.validate({ assertion: assertion(claims({ auth_time: NOW - 10 })) }, context)).resolves.toEqual({
      subject: '1',
      scopes: ['openid', 'api1'],
      authTime: NOW - 10,
    });
  });

  it('uses up the jti only for an assertion that passed its own checks, and refuses it the second time', async () => {
    const { validator, context, firstUse } = setUp();
    await expect(validator.validate({ assertion: assertion(claims({ aud: 'https://elsewhere.example' })) }, context)).rejects.toThrow(OAuthError);
    expect(firstUse).not.toHaveBeenCalled();
    await validator.validate({ assertion: assertion(claims()) }, context);
    expect(firstUse).toHaveBeenCalledWith('jwt-bearer:https://idp.example', 'j1', new Date((NOW + 120) * 1000));
    await expect(validator.validate({ assertion: assertion(claims()) }, context)).rejects.toMatchObject({
      code: 'invalid_grant',
      description: expect.stringContaining('presented before') as string,
    });
  });

  it('refuses a client the issuer does not trust, and an iss that differs from its signer', async () => {
    const { validator, context } = setUp();
    const stranger = { ...context, client: { clientId: 'stranger', allowedScopes: [] } } as unknown as GrantContext;
    await expect(validator.validate({ assertion: assertion(claims()) }, stranger)).rejects.toMatchObject({ code: 'invalid_grant' });
    await expect(validator.validate({ assertion: assertion(claims({ email: 'nobody@example.com', jti: 'j2' })) }, context)).rejects.toMatchObject({
      code: 'invalid_grant',
      description: expect.stringContaining('no local user') as string,
    });
  });
});

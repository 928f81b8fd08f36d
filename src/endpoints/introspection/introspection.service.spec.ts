import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import type { AccessTokenValidator } from '../../tokens/access-token/access-token.validator';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { OAuthError } from '../../protocol/oauth-error';
import type { RefreshToken } from '../../tokens/refresh-tokens/refresh-token';
import type { RefreshTokenService } from '../../tokens/refresh-tokens/refresh-token.service';
import { ResourceCatalog } from '../../identity/resources/resource-catalog';
import type { User } from '../../identity/users/user';
import { UserStore } from '../../identity/users/user.store';
import { IntrospectionService } from './introspection.service';

const HANDLE = 'r'.repeat(43);
const now = Math.floor(Date.now() / 1000);
const accessToken: ValidatedAccessToken = {
  jwtId: 'jti-1',
  subject: '1',
  clientId: 'frontend',
  scopes: ['openid', 'api1'],
  audiences: ['api1'],
  issuedAt: now,
  expiresAt: now + 3600,
};
const refreshToken: RefreshToken = {
  tokenHash: 'h',
  familyId: 'f',
  subject: '1',
  clientId: 'frontend',
  scopes: ['openid', 'offline_access'],
  resources: [],
  authTime: now,
  authenticationMethods: ['pwd'],
  createdAt: new Date(),
  expiresAt: new Date(Date.now() + 3_600_000),
};

function service({ enabled = true, refresh = refreshToken, fault = undefined as Error | undefined } = {}) {
  const accessTokens: Pick<AccessTokenValidator, 'validate'> = {
    async validate(token: string) {
      if (fault) throw fault;
      if (token === 'a.b.c') return accessToken;
      if (token === 'm.2.m') return { ...accessToken, subject: undefined, clientId: 'm2m', audiences: ['api2'] };
      throw OAuthError.invalidToken('the token has expired');
    },
  };
  const refreshTokens: Pick<RefreshTokenService, 'find'> = { find: async (handle: string) => (handle === HANDLE ? refresh : undefined) };
  const users = { findBySubjectId: async (subject: string) => (subject === '1' ? ({ subjectId: '1', enabled } as User) : undefined) };
  const resources = { catalog: new ResourceCatalog({ identityResources: [], apiResources: [{ name: 'api1', scopes: ['api1'], servingClientId: 'orders' }] }) };
  return new IntrospectionService(accessTokens, refreshTokens, new UserStore(users, { ttlSeconds: 0 }), resources, { issuer: 'https://issuer' });
}

const as = (clientId: string) => ({ client: { clientId } }) as AuthenticatedClient;

describe('IntrospectionService', () => {
  it('passes an unexpected fault on instead of answering inactive', async () => {
    const outage = new Error('Connection terminated');
    await expect(service({ fault: outage }).introspect({ token: 'a.b.c' }, as('frontend'))).rejects.toBe(outage);
  });

  it.each<[string, string, string, Parameters<typeof service>[0]]>([
    ['an invalid access token', 'x.y.z', 'frontend', {}],
    ['garbage', 'garbage', 'frontend', {}],
    ['an access token of another client, not for the caller', 'a.b.c', 'm2m', {}],
    ['an access token of a disabled user', 'a.b.c', 'frontend', { enabled: false }],
    ['an unknown refresh token', 'u'.repeat(43), 'frontend', {}],
    ["another client's refresh token", HANDLE, 'api1', {}],
    ['a consumed refresh token', HANDLE, 'frontend', { refresh: { ...refreshToken, consumedAt: new Date() } }],
    ['a revoked refresh token', HANDLE, 'frontend', { refresh: { ...refreshToken, revokedAt: new Date() } }],
    ['an expired refresh token', HANDLE, 'frontend', { refresh: { ...refreshToken, expiresAt: new Date(0) } }],
    ['the refresh token of a disabled user', HANDLE, 'frontend', { enabled: false }],
  ])('answers {"active": false} for %s', async (_, token, caller, options) => {
    expect(await service(options).introspect({ token }, as(caller))).toEqual({ active: false });
  });

  it.each([
    ['the client it was issued to', 'frontend'],
    ['an API its aud names', 'api1'],
    ['the client serving a resource its aud names', 'orders'],
  ])('shows an active access token to %s', async (_, caller) => {
    expect(await service().introspect({ token: 'a.b.c' }, as(caller))).toMatchObject({ active: true, sub: '1', client_id: 'frontend' });
  });

  it('shows a client token without asking for a user', async () => {
    expect(await service({ enabled: false }).introspect({ token: 'm.2.m' }, as('m2m'))).toMatchObject({ active: true, client_id: 'm2m' });
  });

  it('shows a client its own active refresh token, whatever the hint says', async () => {
    const response = await service().introspect({ token: HANDLE, token_type_hint: 'access_token' }, as('frontend'));
    expect(response).toMatchObject({ active: true, client_id: 'frontend', scope: 'openid offline_access' });
  });
});

import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import type { Client } from '../../identity/clients/client';
import type { RefreshToken } from '../../tokens/refresh-tokens/refresh-token';
import { ResourceCatalog } from '../../identity/resources/resource-catalog';
import { INACTIVE, accessTokenIntrospection, isAccessTokenVisibleTo, refreshTokenIntrospection } from './introspection-response';

const client = (clientId: string) => ({ clientId }) as Client;
const token: ValidatedAccessToken = {
  jwtId: 'jti-1',
  subject: '1',
  clientId: 'frontend',
  scopes: ['openid', 'api1'],
  audiences: ['api1'],
  issuedAt: 1_900_000_000,
  expiresAt: 1_900_003_600,
  authTime: 1_899_999_000,
  authenticationMethods: ['pwd'],
};

describe('isAccessTokenVisibleTo', () => {
  const resources = new ResourceCatalog({ identityResources: [], apiResources: [{ name: 'api1', scopes: ['api1'], servingClientId: 'api1-server' }] });

  it('hides a token from a client that neither received it nor is it addressed to', () => {
    expect(isAccessTokenVisibleTo(token, client('m2m'), resources)).toBe(false);
  });

  it('shows a token to the client it was issued to, to an API its aud names, and to the client serving a resource of its aud', () => {
    const callers = ['frontend', 'api1', 'api1-server'];
    expect(callers.map((caller) => isAccessTokenVisibleTo(token, client(caller), resources))).toEqual([true, true, true]);
  });
});

describe('INACTIVE', () => {
  it('is exactly {"active": false}', () => {
    expect(JSON.stringify(INACTIVE)).toBe('{"active":false}');
  });
});

describe('accessTokenIntrospection', () => {
  it('omits sub, auth_time and act when the token has none', () => {
    const response = accessTokenIntrospection({ ...token, subject: undefined, authTime: undefined }, 'https://issuer');
    expect(Object.keys(response)).toEqual(['active', 'iss', 'client_id', 'scope', 'aud', 'exp', 'iat', 'jti', 'token_type']);
  });

  it('gives the RFC 7662 members of an active token, with acr and act when delegated', () => {
    const delegated = { ...token, acr: 'phr', audiences: ['api1', 'api2'], actor: { client_id: 'api1', act: { client_id: 'gateway' } } };
    expect(accessTokenIntrospection(delegated, 'https://issuer')).toEqual({
      active: true,
      iss: 'https://issuer',
      sub: '1',
      client_id: 'frontend',
      scope: 'openid api1',
      aud: ['api1', 'api2'],
      exp: 1_900_003_600,
      iat: 1_900_000_000,
      jti: 'jti-1',
      token_type: 'Bearer',
      auth_time: 1_899_999_000,
      acr: 'phr',
      act: { client_id: 'api1', act: { client_id: 'gateway' } },
    });
  });

  it('gives a single audience as a string, as the token has it', () => {
    expect(accessTokenIntrospection(token, 'https://issuer').aud).toBe('api1');
  });
});

describe('refreshTokenIntrospection', () => {
  it('describes the refresh token without its hash or family, with the acr of its sign-in', () => {
    const refresh: RefreshToken = {
      tokenHash: 'secret-hash',
      familyId: 'family',
      subject: '1',
      clientId: 'frontend',
      scopes: ['openid', 'offline_access'],
      resources: [],
      authTime: 1_899_999_000,
      authenticationMethods: ['pwd'],
      createdAt: new Date(1_900_000_000_000),
      expiresAt: new Date(1_902_592_000_000),
    };
    expect(refreshTokenIntrospection(refresh, 'https://issuer')).toEqual({
      active: true,
      iss: 'https://issuer',
      sub: '1',
      client_id: 'frontend',
      scope: 'openid offline_access',
      exp: 1_902_592_000,
      iat: 1_900_000_000,
      auth_time: 1_899_999_000,
      acr: 'pwd',
    });
  });
});

import type { Client } from '../identity/clients/client';
import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../demo/demo-data';
import type { RequestParameters } from '../protocol/form';
import { ResourceCatalog } from '../identity/resources/resource-catalog';
import { readGrantParameters } from '../protocol/grant-parameters';
import {
  ACCESS_TOKEN_TYPE,
  JWT_TOKEN_TYPE,
  readTokenExchangeRequest,
  scopesForTargets,
  TokenExchangeParameters,
  TXN_TOKEN_TYPE,
} from './token-exchange-request';

const resources = new ResourceCatalog({
  identityResources: DEMO_IDENTITY_RESOURCES,
  apiResources: [...DEMO_API_RESOURCES.filter((api) => api.name !== 'api3'), { name: 'api3', scopes: ['api3.read', 'api3.write'] }],
});
const client: Client = {
  clientId: 'api1',
  enabled: true,
  allowedGrantTypes: ['urn:ietf:params:oauth:grant-type:token-exchange'],
  allowedScopes: ['openid', 'profile', 'api2', 'api3.read'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 0,
  secrets: [],
  public: false,
  redirectUris: [],
  postLogoutRedirectUris: [],
  requireConsent: false,
};
const valid: RequestParameters = { subject_token: 'jwt', subject_token_type: ACCESS_TOKEN_TYPE };
const invalid = (code: string, description: string) => expect.objectContaining({ code, status: 400, description });
/** The DTO validated from the form, as the token endpoint reads it, then the checks across members. */
const read = (parameters: RequestParameters) => readTokenExchangeRequest(readGrantParameters(TokenExchangeParameters, parameters, 'invalid_request'));

describe('TokenExchangeParameters and readTokenExchangeRequest', () => {
  it.each<[string, RequestParameters, string]>([
    ['no subject_token', { subject_token_type: ACCESS_TOKEN_TYPE }, 'subject_token is required'],
    ['an empty subject_token', { ...valid, subject_token: '' }, 'subject_token is required'],
    ['no subject_token_type', { subject_token: 'jwt' }, 'subject_token_type is required'],
    ['an empty subject_token_type', { ...valid, subject_token_type: '' }, 'subject_token_type is required'],
    [
      'a repeated subject_token_type',
      { ...valid, subject_token_type: [ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE] },
      'parameter subject_token_type must not be repeated',
    ],
    ['actor_token without actor_token_type', { ...valid, actor_token: 'jwt' }, 'actor_token_type is required'],
    [
      'an unsupported actor_token_type',
      { ...valid, actor_token: 'jwt', actor_token_type: 'saml2' },
      `actor_token_type must be ${ACCESS_TOKEN_TYPE} or ${JWT_TOKEN_TYPE}`,
    ],
    ['actor_token_type without actor_token', { ...valid, actor_token_type: ACCESS_TOKEN_TYPE }, 'actor_token_type must not be sent without actor_token'],
    ['an empty actor_token', { ...valid, actor_token: '', actor_token_type: ACCESS_TOKEN_TYPE }, 'actor_token is empty'],
    ['an empty audience', { ...valid, audience: ['api2', ''] }, 'audience and resource must not be empty'],
    ['21 targets', { ...valid, audience: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'at most 20 audience and resource values may be sent'],
  ])('refuses %s as invalid_request', (_, parameters, description) => {
    expect(() => read(parameters)).toThrow(invalid('invalid_request', description));
  });

  it('reads the subject token, accepting the jwt token type too', () => {
    expect(read({ ...valid, subject_token_type: JWT_TOKEN_TYPE })).toEqual({
      subjectToken: 'jwt',
      subjectTokenType: JWT_TOKEN_TYPE,
      actorToken: undefined,
      requestedTokenType: ACCESS_TOKEN_TYPE,
      targets: [],
      requestContext: undefined,
      requestDetails: undefined,
    });
  });

  it('reads a transaction-token request: its requested type and raw context parameters', () => {
    const request = read({ ...valid, requested_token_type: TXN_TOKEN_TYPE, request_context: '{"a":1}', request_details: '{}' });
    expect(request).toMatchObject({ requestedTokenType: TXN_TOKEN_TYPE, requestContext: '{"a":1}', requestDetails: '{}' });
  });

  it('reads an actor token with its type', () => {
    expect(read({ ...valid, actor_token: 'actor', actor_token_type: ACCESS_TOKEN_TYPE }).actorToken).toBe('actor');
  });

  it('merges audience and resource values into distinct targets', () => {
    const request = read({ ...valid, audience: ['api2', 'api3'], resource: ['api2'], requested_token_type: ACCESS_TOKEN_TYPE });
    expect(request.targets).toEqual(['api2', 'api3']);
  });
});

describe('scopesForTargets', () => {
  const defaults = { names: ['openid', 'profile', 'api2', 'api3.read'], explicit: false };

  it.each([
    ['an unknown API', 'nope'],
    ['an API none of whose scopes the client may have', 'api1'],
    ['an identity resource', 'openid'],
  ])('refuses %s as invalid_target', (_, target) => {
    expect(() => scopesForTargets([target], defaults, client, resources)).toThrow(invalid('invalid_target', `the client may not obtain a token for ${target}`));
  });

  it('refuses an explicit API scope of another API as invalid_target', () => {
    expect(() => scopesForTargets(['api2'], { names: ['openid', 'api2', 'api3.read'], explicit: true }, client, resources)).toThrow(
      invalid('invalid_target', 'scope api3.read is not for the requested audience'),
    );
  });

  it('refuses explicit scopes that grant nothing at a target as invalid_target', () => {
    expect(() => scopesForTargets(['api2', 'api3'], { names: ['api2'], explicit: true }, client, resources)).toThrow(
      invalid('invalid_target', 'no requested scope grants access to api3'),
    );
  });

  it('leaves the scopes alone without targets', () => {
    expect(scopesForTargets([], defaults, client, resources)).toBe(defaults);
  });

  it('drops the default API scopes of other APIs, keeping identity scopes', () => {
    expect(scopesForTargets(['api3'], defaults, client, resources)).toEqual({ names: ['openid', 'profile', 'api3.read'], explicit: false });
  });

  it('accepts explicit scopes within the targets', () => {
    const requested = { names: ['openid', 'api2', 'api3.read'], explicit: true };
    expect(scopesForTargets(['api2', 'api3'], requested, client, resources)).toBe(requested);
  });
});

import type { Client } from '../identity/clients/client';
import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../demo/demo-data';
import type { RequestedScopes } from '../protocol/scope';
import { submit, type GrantRequest } from './grant.fixtures';
import { ResourceCatalog } from '../identity/resources/resource-catalog';
import { GrantParameterSchema } from '../protocol/grant-parameters';
import { ClientCredentialsGrantValidator } from './client-credentials.grant-validator';

const resources = new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: DEMO_API_RESOURCES });
const client: Client = {
  clientId: 'm2m',
  enabled: true,
  allowedGrantTypes: ['client_credentials'],
  allowedScopes: ['api1', 'api2', 'openid', 'offline_access'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 0,
  secrets: [],
  public: false,
  redirectUris: [],
  postLogoutRedirectUris: [],
  requireConsent: false,
};

function context(scopes: RequestedScopes): GrantRequest {
  return { grantType: 'client_credentials', client, parameters: {}, scopes, resources, clientAddress: '127.0.0.1' };
}

const invalidScope = (description: string) => expect.objectContaining({ code: 'invalid_scope', description });

describe('ClientCredentialsGrantValidator', () => {
  const validator = new ClientCredentialsGrantValidator();

  it('refuses an explicitly requested identity scope', async () => {
    await expect(submit(validator, context({ names: ['api1', 'openid'], explicit: true }))).rejects.toEqual(
      invalidScope('scope openid needs a user and cannot be granted to a client alone'),
    );
  });

  it('refuses an explicitly requested offline_access', async () => {
    await expect(submit(validator, context({ names: ['offline_access'], explicit: true }))).rejects.toEqual(
      invalidScope('scope offline_access needs a user and cannot be granted to a client alone'),
    );
  });

  it('declares no parameters of its own', () => {
    expect(validator.grantType).toBe('client_credentials');
    expect([...GrantParameterSchema.of(validator.parameters).names]).toEqual([]);
  });

  it('issues the requested API scopes for the client alone', async () => {
    await expect(submit(validator, context({ names: ['api2', 'api1'], explicit: true }))).resolves.toEqual({ scopes: ['api2', 'api1'] });
  });

  it('leaves identity scopes out of the default set', async () => {
    await expect(submit(validator, context({ names: ['api1', 'openid', 'api2'], explicit: false }))).resolves.toEqual({
      scopes: ['api1', 'api2'],
    });
  });
});

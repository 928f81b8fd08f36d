import type { AuthenticatedClient, ClientAuthMethodName } from '../clients/client';
import type { ClientAuthMethod, ClientAuthRequest } from './client-auth-method';
import { ClientAuthenticator } from './client-authenticator';

class FakeMethod implements ClientAuthMethod {
  readonly verified: string[] = [];

  constructor(
    private readonly name: ClientAuthMethodName,
    private readonly parameter: string,
  ) {}

  methodName(): ClientAuthMethodName {
    return this.name;
  }
  carries(request: ClientAuthRequest): boolean {
    return request.body[this.parameter] !== undefined;
  }
  claimedClientId(request: ClientAuthRequest): string | undefined {
    return request.body.client_id as string | undefined;
  }
  async authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    this.verified.push(request.endpoint);
    return {
      client: {
        clientId: 'c',
        enabled: true,
        allowedGrantTypes: [],
        allowedScopes: [],
        accessTokenLifetimeSeconds: 1,
        refreshTokenLifetimeSeconds: 1,
        secrets: [],
        redirectUris: [],
        postLogoutRedirectUris: [],
        requireConsent: false,
      },
      method: this.name,
    };
  }
}

const request = (body: Record<string, string>): ClientAuthRequest => ({ authorization: undefined, body, endpoint: 'introspection' });

describe('ClientAuthenticator', () => {
  const secret = new FakeMethod('client_secret_post', 'client_secret');
  const assertion = new FakeMethod('private_key_jwt', 'client_assertion');
  const authenticator = new ClientAuthenticator([secret, assertion]);

  it('refuses a request carrying two methods as invalid_request, verifying neither', () => {
    expect(() => authenticator.identify(request({ client_secret: 's', client_assertion: 'a' }))).toThrow(
      expect.objectContaining({ code: 'invalid_request', status: 400, description: 'more than one client authentication method was used' }),
    );
    expect([...secret.verified, ...assertion.verified]).toEqual([]);
  });

  it('refuses a request carrying none as invalid_client with a Basic challenge', async () => {
    const attempt = authenticator.identify(request({ grant_type: 'client_credentials' }));
    expect({ method: attempt.method, claimedClientId: attempt.claimedClientId }).toEqual({ method: undefined, claimedClientId: undefined });
    await expect(attempt.verify()).rejects.toMatchObject({ code: 'invalid_client', status: 401, options: { challenge: 'Basic' } });
  });

  it('names the method and the claimed client, bounded, before verifying', () => {
    const attempt = authenticator.identify(request({ client_assertion: 'a', client_id: 'x'.repeat(300) }));
    expect(attempt.method).toBe('private_key_jwt');
    expect(attempt.claimedClientId).toHaveLength(200);
    expect(assertion.verified).toEqual([]);
  });

  it('verifies with the one method the request carries, for the endpoint it was sent to', async () => {
    await expect(authenticator.authenticate(request({ client_assertion: 'a' }))).resolves.toMatchObject({ method: 'private_key_jwt' });
    expect(assertion.verified).toEqual(['introspection']);
  });
});

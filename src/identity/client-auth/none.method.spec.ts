import type { Client } from '../clients/client';
import type { ClientStore } from '../clients/client.store';
import type { FormBody } from '../../protocol/form';
import type { ClientAuthRequest } from './client-auth-method';
import { NoneMethod } from './none.method';

function client(overrides: Partial<Client> = {}): Client {
  return {
    clientId: 'spa',
    enabled: true,
    public: true,
    allowedGrantTypes: ['authorization_code'],
    allowedScopes: ['openid'],
    accessTokenLifetimeSeconds: 3600,
    refreshTokenLifetimeSeconds: 0,
    secrets: [],
    redirectUris: ['https://spa.example.com/callback'],
    postLogoutRedirectUris: [],
    requireConsent: true,
    ...overrides,
  };
}

const store = (...clients: Client[]): Pick<ClientStore, 'find'> => ({ find: async (id: string) => clients.find((candidate) => candidate.clientId === id) });
const request = (body: FormBody, authorization?: string): ClientAuthRequest => ({ authorization, body, endpoint: 'token' });
const required = expect.objectContaining({
  code: 'invalid_client',
  status: 401,
  description: 'client authentication is required',
  options: { challenge: 'Basic' },
});

describe('NoneMethod', () => {
  describe('authenticate', () => {
    it('refuses a confidential client naming itself alone, as if no credentials were sent', async () => {
      await expect(new NoneMethod(store(client({ clientId: 'api1', public: false }))).authenticate(request({ client_id: 'api1' }))).rejects.toEqual(required);
    });

    it('refuses an unknown or a disabled public client the same way', async () => {
      const method = new NoneMethod(store(client({ enabled: false })));
      await expect(method.authenticate(request({ client_id: 'spa' }))).rejects.toEqual(required);
      await expect(method.authenticate(request({ client_id: 'other' }))).rejects.toEqual(required);
    });

    it('refuses an empty or oversized client_id', async () => {
      const method = new NoneMethod(store(client()));
      await expect(method.authenticate(request({ client_id: '' }))).rejects.toEqual(required);
      await expect(method.authenticate(request({ client_id: 'x'.repeat(201) }))).rejects.toEqual(required);
    });

    it('accepts a public client by its client_id', async () => {
      expect(await new NoneMethod(store(client())).authenticate(request({ client_id: 'spa' }))).toEqual({ client: client(), method: 'none' });
    });
  });

  describe('carries', () => {
    it('is chosen only by a client_id with no other credential', () => {
      const method = new NoneMethod(store());
      expect(
        [
          request({ client_id: 'spa' }),
          request({ client_id: 'spa', client_secret: 'x' }),
          request({ client_id: 'spa', client_assertion: 'x' }),
          request({ client_id: 'spa', client_assertion_type: 'x' }),
          request({ client_id: 'spa' }, 'Basic abc'),
          request({}),
        ].map((candidate) => method.carries(candidate)),
      ).toEqual([true, false, false, false, false, false]);
    });
  });
});

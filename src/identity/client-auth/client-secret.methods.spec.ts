import { createHash } from 'node:crypto';
import type { Client } from '../clients/client';
import type { ClientStore } from '../clients/client.store';
import type { FormBody } from '../../protocol/form';
import type { ClientAuthRequest } from './client-auth-method';
import { ClientSecretBasicMethod, ClientSecretPostMethod } from './client-secret.methods';

const SECRET = 'api1-secret';
const hash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

function client(overrides: Partial<Client> = {}): Client {
  return {
    clientId: 'api1',
    enabled: true,
    allowedGrantTypes: ['client_credentials'],
    allowedScopes: [],
    accessTokenLifetimeSeconds: 3600,
    refreshTokenLifetimeSeconds: 0,
    secrets: [{ hash: hash(SECRET) }],
    redirectUris: [],
    postLogoutRedirectUris: [],
    requireConsent: false,
    ...overrides,
  };
}

/** A client store holding the given clients; it counts its lookups. */
function store(...clients: Client[]): Pick<ClientStore, 'find'> & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    find: async (clientId: string) => {
      lookups.push(clientId);
      return clients.find((candidate) => candidate.clientId === clientId);
    },
  };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const request = (authorization: string | undefined, body: FormBody = {}): ClientAuthRequest => ({ authorization, body, endpoint: 'token' });
const invalidClient = (challenge: 'Basic' | undefined) => expect.objectContaining({ code: 'invalid_client', status: 401, options: { challenge } });

describe('ClientSecretBasicMethod', () => {
  describe('authenticate', () => {
    it('refuses an unknown client with a Basic challenge', async () => {
      await expect(new ClientSecretBasicMethod(store()).authenticate(request(basic('nobody', SECRET)))).rejects.toEqual(invalidClient('Basic'));
    });

    it('refuses a wrong secret', async () => {
      await expect(new ClientSecretBasicMethod(store(client())).authenticate(request(basic('api1', 'wrong')))).rejects.toEqual(invalidClient('Basic'));
    });

    it('refuses a disabled client even with its secret', async () => {
      const method = new ClientSecretBasicMethod(store(client({ enabled: false })));
      await expect(method.authenticate(request(basic('api1', SECRET)))).rejects.toEqual(invalidClient('Basic'));
    });

    it('refuses an expired secret', async () => {
      const method = new ClientSecretBasicMethod(store(client({ secrets: [{ hash: hash(SECRET), expiresAt: new Date('2000-01-01') }] })));
      await expect(method.authenticate(request(basic('api1', SECRET)))).rejects.toEqual(invalidClient('Basic'));
    });

    it('refuses an oversized client_id without looking it up', async () => {
      const clients = store(client());
      await expect(new ClientSecretBasicMethod(clients).authenticate(request(basic('x'.repeat(201), SECRET)))).rejects.toEqual(invalidClient('Basic'));
      expect(clients.lookups).toEqual([]);
    });

    it('refuses a secret also posted in the body as invalid_request (one method per request)', async () => {
      const method = new ClientSecretBasicMethod(store(client()));
      await expect(method.authenticate(request(basic('api1', SECRET), { client_secret: SECRET }))).rejects.toMatchObject({ code: 'invalid_request' });
    });

    it('authenticates the client by its secret', async () => {
      expect(await new ClientSecretBasicMethod(store(client())).authenticate(request(basic('api1', SECRET)))).toEqual({
        client: client(),
        method: 'client_secret_basic',
      });
    });
  });

  describe('carries', () => {
    it('recognises the Basic scheme whatever its case, and nothing else', () => {
      const method = new ClientSecretBasicMethod(store());
      expect([basic('a', 'b'), 'basic abc', 'Bearer abc', undefined].map((authorization) => method.carries(request(authorization)))).toEqual([
        true,
        true,
        false,
        false,
      ]);
    });
  });

  describe('claimedClientId', () => {
    it('is the id in the header, before anything is verified', () => {
      expect(new ClientSecretBasicMethod(store()).claimedClientId(request(basic('api 1', 'x')))).toBe('api 1');
    });
  });
});

describe('ClientSecretPostMethod', () => {
  describe('authenticate', () => {
    it('refuses a wrong secret without a Basic challenge', async () => {
      const method = new ClientSecretPostMethod(store(client()));
      await expect(method.authenticate(request(undefined, { client_id: 'api1', client_secret: 'wrong' }))).rejects.toEqual(invalidClient(undefined));
    });

    it('refuses a request without client_id with a Basic challenge (RFC 7235 §3.1)', async () => {
      await expect(new ClientSecretPostMethod(store(client())).authenticate(request(undefined, { client_secret: SECRET }))).rejects.toEqual(
        invalidClient('Basic'),
      );
    });

    it('refuses an oversized secret without hashing it against the client', async () => {
      const method = new ClientSecretPostMethod(store(client()));
      await expect(method.authenticate(request(undefined, { client_id: 'api1', client_secret: 'x'.repeat(1025) }))).rejects.toEqual(invalidClient(undefined));
    });

    it('authenticates the client by the posted secret', async () => {
      const method = new ClientSecretPostMethod(store(client()));
      expect(await method.authenticate(request(undefined, { client_id: 'api1', client_secret: SECRET }))).toEqual({
        client: client(),
        method: 'client_secret_post',
      });
    });
  });

  describe('carries', () => {
    it('is chosen by a client_secret in the body', () => {
      const method = new ClientSecretPostMethod(store());
      expect([method.carries(request(undefined, { client_id: 'a', client_secret: '' })), method.carries(request(undefined, { client_id: 'a' }))]).toEqual([
        true,
        false,
      ]);
    });
  });
});

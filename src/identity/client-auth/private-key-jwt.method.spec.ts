import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Client } from '../clients/client';
import type { ClientStore } from '../clients/client.store';
import { ForeignJwtVerifier } from '../trusted-issuers/foreign-jwt.verifier';
import type { JwkSetSource } from '../../protocol/jwk-set-source';
import type { AssertionReplayGuard } from './assertion-replay.guard';
import { JWT_BEARER_ASSERTION, type ClientAuthRequest } from './client-auth-method';
import { PrivateKeyJwtMethod } from './private-key-jwt.method';

const ISSUER = 'https://id.example.com';
const now = () => Math.floor(Date.now() / 1000);

/** Remembers every (client, jti) it was shown, as the PostgreSQL and Redis guards do. */
class MemoryReplayGuard implements AssertionReplayGuard {
  readonly seen = new Map<string, Date>();
  async firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    const key = `${clientId} ${jti}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, expiresAt);
    return true;
  }
}

describe('PrivateKeyJwtMethod', () => {
  let clientKey: CryptoKey;
  let otherKey: CryptoKey;
  let jwks: JSONWebKeySet;
  let replays: MemoryReplayGuard;
  let method: PrivateKeyJwtMethod;

  const client = (overrides: Partial<Client> = {}): Client => ({
    clientId: 'ledger',
    enabled: true,
    allowedGrantTypes: ['client_credentials'],
    allowedScopes: [],
    accessTokenLifetimeSeconds: 3600,
    refreshTokenLifetimeSeconds: 0,
    secrets: [],
    assertionKeys: { type: 'inline', jwks },
    redirectUris: [],
    postLogoutRedirectUris: [],
    requireConsent: false,
    ...overrides,
  });

  function methodWith(...clients: Client[]): PrivateKeyJwtMethod {
    const store: Pick<ClientStore, 'find'> = { find: async (id: string) => clients.find((candidate) => candidate.clientId === id) };
    const keys = { forSource: (source: JwkSetSource) => createLocalJWKSet(source.type === 'inline' ? source.jwks : { keys: [] }) };
    return new PrivateKeyJwtMethod(store, keys, new ForeignJwtVerifier(), replays, { issuer: ISSUER });
  }

  const assertion = (claims: JWTPayload = {}, key = clientKey) =>
    new SignJWT({ iss: 'ledger', sub: 'ledger', aud: ISSUER, jti: `jti-${Math.random()}`, iat: now(), exp: now() + 60, ...claims })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(key);
  const request = (jwt: string, extra: Record<string, string> = {}): ClientAuthRequest => ({
    authorization: undefined,
    body: { client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: jwt, ...extra },
    endpoint: 'token',
  });
  const refused = (description: string) => expect.objectContaining({ code: 'invalid_client', status: 401, description });

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    clientKey = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), alg: 'ES256', kid: 'k1' }] };
  });

  beforeEach(() => {
    replays = new MemoryReplayGuard();
    method = methodWith(client());
  });

  describe('authenticate', () => {
    it('refuses an assertion signed with a key the client did not register', async () => {
      await expect(method.authenticate(request(await assertion({}, otherKey)))).rejects.toMatchObject({ code: 'invalid_client' });
    });

    it('refuses a client without registered keys', async () => {
      await expect(methodWith(client({ assertionKeys: undefined })).authenticate(request(await assertion()))).rejects.toEqual(
        refused('client authentication failed'),
      );
    });

    it('refuses a disabled client', async () => {
      await expect(methodWith(client({ enabled: false })).authenticate(request(await assertion()))).rejects.toEqual(refused('client authentication failed'));
    });

    it('refuses a client_id other than the assertion subject', async () => {
      await expect(method.authenticate(request(await assertion(), { client_id: 'other' }))).rejects.toEqual(refused('client_id does not match the assertion'));
    });

    it('refuses an audience that is not the issuer alone', async () => {
      await expect(method.authenticate(request(await assertion({ aud: [ISSUER, `${ISSUER}/connect/token`] })))).rejects.toEqual(
        refused('invalid client assertion: "aud" must be the issuer identifier alone'),
      );
    });

    it('refuses an assertion valid for more than five minutes', async () => {
      await expect(method.authenticate(request(await assertion({ exp: now() + 3600 })))).rejects.toEqual(
        refused('invalid client assertion: "exp" is more than 5 minutes ahead'),
      );
    });

    it('refuses an assertion without jti', async () => {
      await expect(method.authenticate(request(await assertion({ jti: undefined })))).rejects.toMatchObject({ code: 'invalid_client' });
    });

    it('refuses the same assertion a second time (RFC 7523 §3 item 7)', async () => {
      const jwt = await assertion();
      await method.authenticate(request(jwt));
      await expect(method.authenticate(request(jwt))).rejects.toEqual(refused('invalid client assertion: it was used before'));
    });

    it('refuses another assertion type', async () => {
      const body = { client_assertion_type: 'urn:example:other', client_assertion: await assertion() };
      await expect(method.authenticate({ authorization: undefined, body, endpoint: 'token' })).rejects.toEqual(refused('unsupported client_assertion_type'));
    });

    it('authenticates the client and remembers the jti until the assertion could no longer verify', async () => {
      const exp = now() + 60;
      expect(await method.authenticate(request(await assertion({ jti: 'once', exp })))).toEqual({ client: client(), method: 'private_key_jwt' });
      expect(replays.seen.get('ledger once')).toEqual(new Date((exp + 60) * 1000));
    });
  });

  describe('claimedClientId', () => {
    it('is the posted client_id, else the unverified subject of the assertion', async () => {
      const jwt = await assertion();
      expect([method.claimedClientId(request(jwt)), method.claimedClientId(request(jwt, { client_id: 'named' }))]).toEqual(['ledger', 'named']);
    });
  });
});

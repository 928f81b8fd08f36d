import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Client } from '../clients/client';
import { ForeignJwtVerifier } from '../trusted-issuers/foreign-jwt.verifier';
import type { TrustedIssuer } from '../trusted-issuers/trusted-issuer';
import { JWT_BEARER_ASSERTION, JWT_SPIFFE_ASSERTION, type ClientAuthRequest } from './client-auth-method';
import { WorkloadIdentityMethod } from './workload.method';

const ISSUER = 'https://id.example.com';
const CLUSTER = 'https://kubernetes.default.svc';
const DOMAIN = 'spiffe://example.org';
const ACCOUNT = 'system:serviceaccount:payments:ledger';
const SPIFFE_ID = `${DOMAIN}/ns/payments/sa/ledger`;
const now = () => Math.floor(Date.now() / 1000);

describe('WorkloadIdentityMethod', () => {
  let workloadKey: CryptoKey;
  let otherKey: CryptoKey;
  let jwks: JSONWebKeySet;
  const issuers = new Map<string, TrustedIssuer>();

  const client = (overrides: Partial<Client> = {}): Client => ({
    clientId: 'ledger',
    enabled: true,
    allowedGrantTypes: ['client_credentials'],
    allowedScopes: [],
    accessTokenLifetimeSeconds: 3600,
    refreshTokenLifetimeSeconds: 0,
    secrets: [],
    workloadIdentities: [
      { issuer: CLUSTER, subject: ACCOUNT },
      { issuer: DOMAIN, subject: SPIFFE_ID },
    ],
    redirectUris: [],
    postLogoutRedirectUris: [],
    requireConsent: false,
    ...overrides,
  });

  function methodWith(...clients: Client[]): WorkloadIdentityMethod {
    return new WorkloadIdentityMethod(
      {
        find: async (id: string) => clients.find((candidate) => candidate.clientId === id),
        findByWorkloadIdentity: async (issuer: string, subject: string) =>
          clients.find((candidate) => candidate.workloadIdentities?.some((identity) => identity.issuer === issuer && identity.subject === subject)),
      },
      { find: async (issuer: string, role: string) => (issuers.get(issuer)?.role === role ? issuers.get(issuer) : undefined) },
      { forIssuer: () => createLocalJWKSet(jwks) },
      new ForeignJwtVerifier(),
      { issuer: ISSUER },
    );
  }

  const token = (claims: JWTPayload, key = workloadKey) =>
    new SignJWT({ aud: ISSUER, iat: now(), exp: now() + 600, ...claims }).setProtectedHeader({ alg: 'ES256' }).sign(key);
  const kubernetes = async (claims: JWTPayload = {}, extra: Record<string, string> = { client_id: 'ledger' }, key?: CryptoKey): Promise<ClientAuthRequest> => ({
    authorization: undefined,
    body: { client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await token({ iss: CLUSTER, sub: ACCOUNT, ...claims }, key), ...extra },
    endpoint: 'token',
  });
  const spiffe = async (claims: JWTPayload = {}, extra: Record<string, string> = {}): Promise<ClientAuthRequest> => ({
    authorization: undefined,
    body: { client_assertion_type: JWT_SPIFFE_ASSERTION, client_assertion: await token({ sub: SPIFFE_ID, ...claims }), ...extra },
    endpoint: 'token',
  });
  const refused = (description: string) => expect.objectContaining({ code: 'invalid_client', status: 401, description });

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    workloadKey = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), alg: 'ES256', kid: 'w1' }] };
    issuers.set(CLUSTER, { issuer: CLUSTER, role: 'workload', kind: 'kubernetes', keys: { type: 'inline', jwks }, enabled: true });
    issuers.set(DOMAIN, { issuer: DOMAIN, role: 'workload', kind: 'spiffe', keys: { type: 'inline', jwks }, enabled: true });
  });

  describe('authenticate (Kubernetes service-account token)', () => {
    it('requires client_id', async () => {
      await expect(methodWith(client()).authenticate(await kubernetes({}, {}))).rejects.toEqual(
        refused('client_id is required with a Kubernetes service-account token'),
      );
    });

    it('refuses an issuer that is not a trusted workload issuer', async () => {
      await expect(methodWith(client()).authenticate(await kubernetes({ iss: 'https://other.example.com' }))).rejects.toEqual(
        refused('the assertion issuer is not a trusted workload issuer'),
      );
    });

    it('refuses a token signed with another key', async () => {
      await expect(methodWith(client()).authenticate(await kubernetes({}, undefined, otherKey))).rejects.toMatchObject({ code: 'invalid_client' });
    });

    it('refuses a token addressed to someone else', async () => {
      await expect(methodWith(client()).authenticate(await kubernetes({ aud: 'https://elsewhere.example.com' }))).rejects.toMatchObject({
        code: 'invalid_client',
      });
    });

    it('refuses a service account not bound to the named client', async () => {
      const unbound = client({ workloadIdentities: [{ issuer: CLUSTER, subject: 'system:serviceaccount:payments:other' }] });
      await expect(methodWith(unbound).authenticate(await kubernetes())).rejects.toEqual(refused('the workload identity is not bound to this client'));
    });

    it('refuses a disabled client', async () => {
      await expect(methodWith(client({ enabled: false })).authenticate(await kubernetes())).rejects.toEqual(
        refused('the workload identity is not bound to this client'),
      );
    });

    it('authenticates the client bound to the service account, reusable like the token itself', async () => {
      const method = methodWith(client());
      const request = await kubernetes();
      expect(await method.authenticate(request)).toEqual({ client: client(), method: 'kubernetes_service_account' });
      expect(await method.authenticate(request)).toEqual({ client: client(), method: 'kubernetes_service_account' });
    });
  });

  describe('authenticate (SPIFFE JWT-SVID)', () => {
    it('refuses a SPIFFE ID outside the trusted trust domains', async () => {
      await expect(methodWith(client()).authenticate(await spiffe({ sub: 'spiffe://other.org/ns/x' }))).rejects.toEqual(
        refused('the SPIFFE ID is not in a trusted trust domain'),
      );
    });

    it('finds the client by its workload identity when client_id is left out', async () => {
      expect(await methodWith(client()).authenticate(await spiffe())).toEqual({ client: client(), method: 'spiffe_jwt_svid' });
    });

    it('refuses a named client the SPIFFE ID is not bound to', async () => {
      const other = client({ clientId: 'other', workloadIdentities: [] });
      await expect(methodWith(client(), other).authenticate(await spiffe({}, { client_id: 'other' }))).rejects.toEqual(
        refused('the workload identity is not bound to this client'),
      );
    });
  });

  describe('methodName', () => {
    it('names the assertion kind', async () => {
      const method = methodWith();
      expect([method.methodName(await kubernetes()), method.methodName(await spiffe())]).toEqual(['kubernetes_service_account', 'spiffe_jwt_svid']);
    });
  });
});

import type { Client, ClientSecret } from './client';
import { ClientSecretVerifier, hashClientSecret } from './client-secret.verifier';

const NOW = new Date('2030-01-01T00:00:00Z');

function secret(plain: string, expiresAt?: string): ClientSecret {
  return { hash: Buffer.from(hashClientSecret(plain), 'base64'), expiresAt: expiresAt ? new Date(expiresAt) : undefined };
}

function client(...secrets: ClientSecret[]): Client {
  return {
    clientId: 'm2m',
    enabled: true,
    allowedGrantTypes: ['client_credentials'],
    allowedScopes: ['api1'],
    accessTokenLifetimeSeconds: 3600,
    refreshTokenLifetimeSeconds: 0,
    secrets,
    public: false,
    redirectUris: [],
    postLogoutRedirectUris: [],
    requireConsent: false,
  };
}

describe('hashClientSecret', () => {
  it('is the base64 SHA-256 of the UTF-8 secret', () => {
    expect(hashClientSecret('abc')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
  });
});

describe('ClientSecretVerifier.verify', () => {
  const verifier = new ClientSecretVerifier(() => NOW);

  it('rejects a wrong secret', () => {
    expect(verifier.verify(client(secret('m2m-secret')), 'm2m-secreT')).toBe(false);
  });

  it('rejects an empty secret and a client without secrets', () => {
    expect(verifier.verify(client(secret('m2m-secret')), '')).toBe(false);
    expect(verifier.verify(client(), 'm2m-secret')).toBe(false);
  });

  it('ignores a secret that expired, also at the exact expiry instant', () => {
    expect(verifier.verify(client(secret('old', '2029-12-31T23:59:59Z')), 'old')).toBe(false);
    expect(verifier.verify(client(secret('old', NOW.toISOString())), 'old')).toBe(false);
  });

  it('ignores a stored hash of the wrong length', () => {
    expect(verifier.verify(client({ hash: Buffer.from('short') }), 'short')).toBe(false);
  });

  it('accepts the matching secret', () => {
    expect(verifier.verify(client(secret('m2m-secret')), 'm2m-secret')).toBe(true);
  });

  it('accepts a secret that has not expired yet', () => {
    expect(verifier.verify(client(secret('new', '2030-01-01T00:00:01Z')), 'new')).toBe(true);
  });

  it('accepts any of several secrets, skipping the expired one', () => {
    const rotating = client(secret('old', '2029-06-01T00:00:00Z'), secret('current'), secret('next', '2031-01-01T00:00:00Z'));
    expect(['old', 'current', 'next', 'other'].map((plain) => verifier.verify(rotating, plain))).toEqual([false, true, true, false]);
  });
});

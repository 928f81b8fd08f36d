import { ResourceCatalog } from '../../resources/resource-catalog';
import type { ClientMetadata } from './client-metadata';
import { selfRegisteredClient, selfRegisteredScopes } from './self-registered-client';

const catalog = new ResourceCatalog({
  identityResources: [
    { name: 'openid', claimTypes: ['sub'] },
    { name: 'profile', claimTypes: ['name'] },
  ],
  apiResources: [
    { name: 'api1', scopes: ['api1'] },
    { name: 'notes', scopes: ['notes', 'notes.write'], uri: 'http://127.0.0.1:5180/mcp', openToSelfRegistered: true },
  ],
});

const metadata: ClientMetadata = { redirectUris: ['https://app.example/cb'], postLogoutRedirectUris: [], tokenEndpointAuthMethod: 'none' };

describe('selfRegisteredScopes', () => {
  it('is the identity scopes, offline_access and the opened resources’ scopes, never another API’s', () => {
    expect(selfRegisteredScopes(catalog)).toEqual(['openid', 'profile', 'offline_access', 'notes', 'notes.write']);
  });
});

describe('selfRegisteredClient', () => {
  it('never allows more than the code flow and refresh, whatever grant_types and scope say', () => {
    const client = selfRegisteredClient(
      { clientId: 'x', kind: 'dynamic', metadata: { ...metadata, grantTypes: ['client_credentials', 'authorization_code'], scope: ['api1', 'notes'] } },
      catalog,
    );
    expect(client.allowedGrantTypes).toEqual(['authorization_code']);
    expect(client.allowedScopes).toEqual(['notes']);
  });

  it('always asks consent, every time only for a metadata document with loopback redirect URIs alone', () => {
    const loopback = { ...metadata, redirectUris: ['http://127.0.0.1:4000/cb', 'http://localhost:4000/cb'] };
    const mixed = { ...metadata, redirectUris: ['http://127.0.0.1:4000/cb', 'https://app.example/cb'] };
    expect(selfRegisteredClient({ clientId: 'x', kind: 'metadata_document', metadata: loopback }, catalog)).toMatchObject({
      requireConsent: true,
      consentEveryTime: true,
    });
    expect(selfRegisteredClient({ clientId: 'x', kind: 'metadata_document', metadata: mixed }, catalog)).toMatchObject({
      requireConsent: true,
      consentEveryTime: false,
    });
    expect(selfRegisteredClient({ clientId: 'x', kind: 'dynamic', metadata: loopback }, catalog)).toMatchObject({
      requireConsent: true,
      consentEveryTime: false,
    });
  });

  it('is public with none, and carries the document host', () => {
    expect(selfRegisteredClient({ clientId: 'x', kind: 'metadata_document', metadata, host: 'app.example:8443' }, catalog)).toMatchObject({
      public: true,
      clientHost: 'app.example:8443',
      selfRegistered: 'metadata_document',
      allowedGrantTypes: ['authorization_code', 'refresh_token'],
    });
  });
});

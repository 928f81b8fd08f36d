import { ClientMetadataError } from './client-metadata';
import { readClientMetadataDocument } from './client-metadata-document';

const URL = 'https://app.example/client.json';
const good = { client_id: URL, client_name: 'Notes agent', redirect_uris: ['https://app.example/callback'] };

function problem(document: unknown): string {
  try {
    readClientMetadataDocument(URL, document);
  } catch (error) {
    if (error instanceof ClientMetadataError) return `${error.code}: ${error.description}`;
    throw error;
  }
  throw new Error('the document was accepted');
}

describe('readClientMetadataDocument', () => {
  it('refuses what is not a JSON object', () => {
    expect(problem([good])).toContain('JSON object');
    expect(problem('x')).toContain('JSON object');
    expect(problem(null)).toContain('JSON object');
  });

  it('refuses a document whose client_id is not exactly its URL', () => {
    expect(problem({ ...good, client_id: 'https://other.example/client.json' })).toContain('client_id is not its URL');
    expect(problem({ ...good, client_id: `${URL}/` })).toContain('client_id is not its URL');
    expect(problem({ ...good, client_id: undefined })).toContain('client_id is not its URL');
  });

  it('refuses a shared secret in any form', () => {
    expect(problem({ ...good, client_secret: 's3cret' })).toContain('client_secret');
    expect(problem({ ...good, client_secret_expires_at: 0 })).toContain('client_secret');
    expect(problem({ ...good, token_endpoint_auth_method: 'client_secret_basic' })).toContain('client_secret');
    expect(problem({ ...good, token_endpoint_auth_method: 'client_secret_post' })).toContain('client_secret');
  });

  it('refuses missing, empty, relative, fragment, plain-http and too many redirect URIs as invalid_redirect_uri', () => {
    expect(problem({ ...good, redirect_uris: undefined })).toMatch(/^invalid_redirect_uri/);
    expect(problem({ ...good, redirect_uris: [] })).toMatch(/^invalid_redirect_uri/);
    expect(problem({ ...good, redirect_uris: ['/callback'] })).toMatch(/^invalid_redirect_uri/);
    expect(problem({ ...good, redirect_uris: ['https://app.example/cb#x'] })).toMatch(/^invalid_redirect_uri/);
    expect(problem({ ...good, redirect_uris: ['http://app.example/cb'] })).toMatch(/^invalid_redirect_uri/);
    expect(problem({ ...good, redirect_uris: [42] })).toMatch(/^invalid_redirect_uri/);
    expect(problem({ ...good, redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) })).toMatch(/^invalid_redirect_uri/);
  });

  it('refuses private_key_jwt without keys, with both kinds of keys, or with a private key', () => {
    expect(problem({ ...good, token_endpoint_auth_method: 'private_key_jwt' })).toContain('exactly one of jwks and jwks_uri');
    const jwks = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] };
    expect(problem({ ...good, token_endpoint_auth_method: 'private_key_jwt', jwks, jwks_uri: 'https://app.example/jwks' })).toContain('exactly one');
    expect(problem({ ...good, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'EC', d: 'secret' }] } })).toContain('private');
    expect(problem({ ...good, token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'http://app.example/jwks' })).toContain('https');
    expect(problem({ ...good, jwks })).toContain('for token_endpoint_auth_method private_key_jwt');
  });

  it('refuses unknown methods and ill-typed or oversized fields', () => {
    expect(problem({ ...good, token_endpoint_auth_method: 'tls_client_auth' })).toContain('token_endpoint_auth_method');
    expect(problem({ ...good, client_name: 7 })).toContain('client_name');
    expect(problem({ ...good, client_name: 'x'.repeat(101) })).toContain('client_name');
    expect(problem({ ...good, client_uri: 'javascript:alert(1)' })).toContain('client_uri');
    expect(problem({ ...good, grant_types: 'authorization_code' })).toContain('grant_types');
  });

  it('reads a good document: none by default, other RFC 7591 fields kept to narrow', () => {
    expect(
      readClientMetadataDocument(URL, { ...good, grant_types: ['authorization_code', 'client_credentials'], scope: 'openid notes', software_id: 'x' }),
    ).toEqual({
      clientName: 'Notes agent',
      redirectUris: ['https://app.example/callback'],
      postLogoutRedirectUris: [],
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'client_credentials'],
      scope: ['openid', 'notes'],
    });
  });

  it('accepts loopback http redirect URIs and private_key_jwt with a jwks_uri', () => {
    const read = readClientMetadataDocument(URL, {
      ...good,
      redirect_uris: ['http://127.0.0.1:33418/callback', 'http://localhost/cb'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: 'https://app.example/jwks.json',
    });
    expect(read.jwksUri).toBe('https://app.example/jwks.json');
    expect(read.redirectUris).toEqual(['http://127.0.0.1:33418/callback', 'http://localhost/cb']);
  });
});

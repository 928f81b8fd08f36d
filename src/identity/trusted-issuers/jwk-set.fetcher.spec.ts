import { startJwksServer, type JwksTestServer } from '../../../test/support/jwks-server';
import { JwkSetFetcher } from './jwk-set.fetcher';

const ec = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'a' };

describe('JwkSetFetcher.fetch', () => {
  let server: JwksTestServer;
  const fetcher = new JwkSetFetcher({ timeoutMs: 300, maxBytes: 2048 });

  beforeEach(async () => {
    server = await startJwksServer();
  });
  afterEach(() => server.close());

  it('refuses a plain-http URI that is not loopback without connecting', async () => {
    await expect(fetcher.fetch('http://keys.example.com/jwks', false)).rejects.toThrow('must be https');
  });

  it('gives up after the timeout', async () => {
    server.serve({ keys: [ec] }, { delayMs: 2000 });
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow();
  });

  it('refuses a body over the size limit, declared or streamed', async () => {
    server.serve({ keys: [ec], padding: 'x'.repeat(4096) });
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow('larger than 2048 bytes');
  });

  it('refuses a status other than 200, a redirect, and a document that is not a JWK Set', async () => {
    server.serve({ keys: [ec] }, { status: 500 });
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow('answered 500');
    server.serve('', { status: 302, headers: { location: 'https://elsewhere.example/jwks' } });
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow();
    server.serve({ nokeys: true });
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow('not a JWK Set');
  });

  it('refuses JSON that is not, nests too deeply or names a member twice', async () => {
    server.serve('{"keys":[');
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow('not JSON');
    server.serve(`{"keys":[${'['.repeat(40)}${']'.repeat(40)}]}`);
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow('nested deeper than 32 levels');
    server.serve('{"keys":[{"kty":"EC","kty":"RSA"}]}');
    await expect(fetcher.fetch(server.url, false)).rejects.toThrow('named twice');
  });

  it('returns the usable keys of the set', async () => {
    server.serve({ keys: [ec, { ...ec, kid: 'enc', use: 'enc' }] });
    await expect(fetcher.fetch(server.url, false)).resolves.toEqual({ jwks: { keys: [ec] } });
  });
});

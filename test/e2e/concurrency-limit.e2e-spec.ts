import { startTestServer, type TestServer } from '../support/create-test-app';
import { requestToken } from '../support/http';

describe('concurrent request cap', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ MAX_CONCURRENT_REQUESTS: '1' });
  });
  afterAll(() => server.close());

  it('answers requests past the cap with 503 and Retry-After, and serves again afterwards', async () => {
    // Password grants are slow (scrypt), so six sent together overlap.
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'bob', password: 'bob', scope: 'openid' }),
      ),
    );
    const busy = responses.filter((response) => response.status === 503);
    expect(responses.filter((response) => response.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const response of busy) {
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.body).toEqual({ error: 'temporarily_unavailable', error_description: 'the server is busy; retry later' });
    }
    const after = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials' });
    expect(after.status).toBe(200);
  });
});

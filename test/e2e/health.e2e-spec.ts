import { ShutdownState } from '../../src/endpoints/health/shutdown-state';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { request } from '../support/http';

describe('health probes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('GET /health/live answers 200 while the process serves', async () => {
    const response = await request(`${server.url}/health/live`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /health/ready reports the database, the migrations and the signing key up', async () => {
    const response = await request(`${server.url}/health/ready`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, migrations: { status: 'up' }, signing_key: { status: 'up' } },
    });
  });

  it("GET /health/ready answers a failed check with Terminus's 503 body, not an OAuth error", async () => {
    const shutdown = server.app.get(ShutdownState);
    shutdown.draining = true;
    try {
      const response = await request(`${server.url}/health/ready`);
      expect(response.status).toBe(503);
      expect(response.headers.get('cache-control')).toContain('no-store');
      expect(response.body).toMatchObject({ status: 'error', error: { serving: { status: 'down', message: 'shutting down' } } });
      expect(response.body).not.toHaveProperty('error_description');
    } finally {
      shutdown.draining = false;
    }
  });

  it('answers an unknown path as an OAuth error', async () => {
    const response = await request(`${server.url}/health-nope`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'invalid_request', error_description: 'Not found' });
  });
});

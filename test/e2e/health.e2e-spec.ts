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
});

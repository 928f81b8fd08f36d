import { MetricsListener } from '../../src/platform/metrics/metrics.listener';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { request, requestToken, userAccessToken } from '../support/http';

function sample(metrics: string, line: string): number {
  const match = metrics.split('\n').find((row) => row.startsWith(`${line} `));
  return match ? Number(match.slice(line.length + 1)) : 0;
}

/** Metrics are served on METRICS_PORT only, never on the public port (docs/operations.md#metrics). */
describe('GET /metrics on METRICS_PORT', () => {
  let server: TestServer;
  let metricsUrl: string;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
    metricsUrl = `http://127.0.0.1:${server.app.get(MetricsListener).port()}/metrics`;
  });
  afterAll(() => server.close());

  it('is not served on the public port', async () => {
    expect((await request(`${server.url}/metrics`)).status).toBe(404);
  });

  it('serves nothing else on the metrics port', async () => {
    expect((await request(metricsUrl.replace('/metrics', '/connect/token'))).status).toBe(404);
  });

  it('counts token requests by grant type and outcome, and tokens issued, without client ids or secrets', async () => {
    const before = (await request(metricsUrl)).body as string;
    expect((await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials' })).status).toBe(200);
    expect((await requestToken(server.url, 'm2m', 'wrong-secret', { grant_type: 'client_credentials' })).status).toBe(401);
    expect((await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'password' })).status).toBe(400);

    const response = await request(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const after = response.body as string;
    const success = 'tollgate_http_requests_total{endpoint="/connect/token",grant_type="client_credentials",outcome="success"}';
    const invalidClient = 'tollgate_http_requests_total{endpoint="/connect/token",grant_type="client_credentials",outcome="invalid_client"}';
    const unauthorized = 'tollgate_http_requests_total{endpoint="/connect/token",grant_type="password",outcome="unauthorized_client"}';
    const issued = 'tollgate_tokens_issued_total{grant_type="client_credentials"}';
    expect(sample(after, success) - sample(before, success)).toBe(1);
    expect(sample(after, invalidClient) - sample(before, invalidClient)).toBe(1);
    expect(sample(after, unauthorized) - sample(before, unauthorized)).toBe(1);
    expect(sample(after, issued) - sample(before, issued)).toBe(1);
    expect(after).toMatch(/^tollgate_signing_key_age_seconds \d/m);
    expect(after).toMatch(/^tollgate_db_pool_connections\{state="total"\} \d/m);
    expect(after).toContain('tollgate_http_request_duration_seconds_bucket');
    expect(after).not.toMatch(/m2m|secret/);
  });

  it('counts validations the verified-token cache answered and those that checked the signature', async () => {
    const token = await userAccessToken(server.url, 'alice', 'openid');
    const hit = 'tollgate_verified_token_cache_lookups_total{result="hit"}';
    const miss = 'tollgate_verified_token_cache_lookups_total{result="miss"}';
    const before = (await request(metricsUrl)).body as string;
    for (let time = 0; time < 3; time++) {
      expect((await request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    }
    const after = (await request(metricsUrl)).body as string;
    // Kept from its second validation on: two signature checks, then one answer from the cache.
    expect(sample(after, miss) - sample(before, miss)).toBe(2);
    expect(sample(after, hit) - sample(before, hit)).toBe(1);
  });
});

describe('without METRICS_PORT', () => {
  it('opens no metrics listener, and the public port has no /metrics', async () => {
    const server = await startTestServer();
    try {
      expect(server.app.get(MetricsListener).port()).toBeUndefined();
      expect((await request(`${server.url}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

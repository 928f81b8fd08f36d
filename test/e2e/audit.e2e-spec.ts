import { createHash } from 'node:crypto';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { hashClientSecret } from '../../src/identity/clients/client-secret.verifier';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { postForm, requestToken, userAccessToken } from '../support/http';

describe('audit events', () => {
  const sink = new RecordingAuditSink();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { auditSink: sink });
  });
  afterAll(() => server.close());

  it('records issued tokens, failures, client authentication failures, refresh-token reuse and revocation, without secrets or tokens', async () => {
    const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1');
    const delegated = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: subjectToken, scope: 'api2' });
    expect(delegated.status).toBe(200);
    expect((await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: 'garbage' })).status).toBe(400);
    expect((await requestToken(server.url, 'm2m', 'wrong-secret', { grant_type: 'client_credentials' })).status).toBe(401);
    const withRefresh = await requestToken(server.url, 'frontend', 'frontend-secret', {
      grant_type: 'password',
      username: 'bob',
      password: 'bob',
      scope: 'openid offline_access',
    });
    const refreshToken = withRefresh.body.refresh_token as string;
    expect((await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'refresh_token', refresh_token: refreshToken })).status).toBe(200);
    // Presented again after the grace window for concurrent duplicates: reuse.
    await sql(`UPDATE refresh_tokens SET consumed_at = consumed_at - interval '1 minute' WHERE token_hash = $1`, [
      createHash('sha256').update(refreshToken).digest('base64url'),
    ]);
    expect((await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'refresh_token', refresh_token: refreshToken })).status).toBe(400);
    const revoked = await postForm(`${server.url}/connect/revocation`, { token: delegated.body.access_token, client_id: 'api1', client_secret: 'api1-secret' });
    expect(revoked.status).toBe(200);

    expect(sink.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'token.issued', grantType: 'delegation', clientId: 'api1', subject: '1', scopes: ['api2'], actors: ['api1'] }),
        { name: 'token.request_failed', grantType: 'delegation', clientId: 'api1', error: 'invalid_grant' },
        expect.objectContaining({ name: 'client.authentication_failed', clientId: 'm2m', error: 'client authentication failed' }),
        expect.objectContaining({ name: 'refresh_token.reuse_detected', clientId: 'frontend', subject: '2' }),
        expect.objectContaining({ name: 'token.revoked', clientId: 'api1', tokenType: 'access_token' }),
      ]),
    );
    const recorded = JSON.stringify(sink.events);
    for (const secret of [
      'api1-secret',
      'm2m-secret',
      'wrong-secret',
      'frontend-secret',
      hashClientSecret('api1-secret'),
      subjectToken,
      refreshToken,
      delegated.body.access_token,
    ]) {
      expect(recorded).not.toContain(secret);
    }
  });
});

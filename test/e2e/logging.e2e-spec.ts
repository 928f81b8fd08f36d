import { createRootLogger } from '../../src/logging/root-logger';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { basic, request, requestToken } from '../support/http';

/** Issue 13: one pino logger for Nest's own messages, the request log and the audit trail. */
describe('one logger', () => {
  const lines: string[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const logger = createRootLogger('info', { write: (line: string) => void lines.push(line) });
    server = await startTestServer({ LOG_LEVEL: 'info' }, { logger });
  });
  afterAll(() => server.close());

  it("writes Nest's own messages, request lines and audit lines to the same destination, each a JSON line, with no credential", async () => {
    const issued = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
    expect(issued.status).toBe(200);
    const accessToken: string = issued.body.access_token;
    expect((await request(`${server.url}/connect/userinfo?access_token=${accessToken}`, { headers: { cookie: `session=${accessToken}` } })).status).toBe(401);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(expect.objectContaining({ level: 30, context: 'NestApplication', msg: 'Nest application successfully started' }));
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 30,
        reqId: expect.any(String),
        req: { method: 'POST', path: '/connect/token', remoteAddress: '127.0.0.1' },
        msg: 'incoming request',
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 30, reqId: expect.any(String), res: { statusCode: 200 }, msg: 'request completed' }));
    expect(records).toContainEqual(expect.objectContaining({ req: { method: 'GET', path: '/connect/userinfo', remoteAddress: '127.0.0.1' } }));
    expect(records).toContainEqual(
      expect.objectContaining({ level: 30, kind: 'audit', audit: 'token.issued', clientId: 'm2m', grantType: 'client_credentials', scopes: ['api1'] }),
    );
    // One process, one logger: every record carries the same base fields.
    expect(new Set(records.map(({ pid, hostname }) => `${pid}@${hostname}`))).toEqual(new Set([`${process.pid}@${records[0].hostname}`]));

    const output = lines.join('');
    for (const secret of ['m2m-secret', basic('m2m', 'm2m-secret').slice('Basic '.length), accessToken, accessToken.split('.')[2]])
      expect(output).not.toContain(secret);
  });

  it('drops path parameters after ";" (matrix parameters) from the request log, as it drops the query string', async () => {
    const before = lines.length;
    for (const path of [
      '/connect/authorize;code=short-code-1',
      '/connect/authorize;jsessionid=s2;code=short-code-2?state=x',
      '/.well-known;p=short-code-3/openid-configuration',
    ])
      await request(`${server.url}${path}`);
    const logged = lines.slice(before).map((line) => JSON.parse(line) as { req?: { path: string } });
    const paths = logged.flatMap(({ req }) => (req ? [req.path] : []));
    expect(paths).toEqual(['/connect/authorize', '/connect/authorize', '/.well-known']);
    expect(lines.slice(before).join('')).not.toMatch(/short-code/);
  });
});

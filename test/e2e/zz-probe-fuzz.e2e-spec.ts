import { startTestServer } from '../support/create-test-app';
import { basic } from '../support/http';
it('probe', async () => {
  const server = await startTestServer();
  const fastify = server.app.getHttpAdapter().getInstance();
  const form = 'application/x-www-form-urlencoded';
  for (const payload of ['grant_type=password&client_id=fr%00&client_secret=x', 'grant_type=password&username=al%00ice&password=x']) {
    const r = await fastify.inject({ method: 'POST', url: '/connect/token', payload, headers: { 'content-type': form, authorization: payload.includes('username') ? basic('frontend', 'frontend-secret') : undefined } as any });
    console.log(r.statusCode, r.body);
  }
  await server.close();
});

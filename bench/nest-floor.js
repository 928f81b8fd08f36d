'use strict';
/**
 * The framework floor: the design-card limit's handlers (bench/baseline.js with BASELINE_JWT=nestjs) served
 * through NestJS on Fastify as the design card builds a service: a controller, a guard authenticating the
 * client, the form parsed by the adapter, the response returned from the handler. No database, logging,
 * metrics or throttling. What is left between this and the design-card limit is what the framework costs,
 * and no service on that stack can win it back.
 *
 * Env: as bench/baseline.js (PORT, HOST, SIGNING_ALG, ISSUER); prints `{"listening": port}` once listening.
 */
process.env.BASELINE_JWT = 'nestjs';
require('reflect-metadata');
const common = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const handlers = require('./baseline');

class ClientGuard {
  canActivate(context) {
    const request = context.switchToHttp().getRequest();
    request.client = handlers.authenticateClient(request.headers.authorization);
    if (!request.client) throw new common.HttpException({ error: 'invalid_client' }, 401);
    return true;
  }
}
Reflect.decorate([common.Injectable()], ClientGuard);

/** @param {any[]} result [status, body] as the baseline's handlers answer */
const answer = ([status, body]) => {
  if (status !== 200) throw new common.HttpException(body, status);
  return body;
};

class Endpoints {
  async token(request, form) {
    return answer(await handlers.issue(request.client, form ?? {}));
  }

  async userinfo(request) {
    return answer(await handlers.userinfo(request));
  }

  async authorize(request) {
    return answer(await handlers.authorize(request));
  }

  health() {
    return { status: 'ok' };
  }
}
const parameter = (decorator, index) => (target, key) => decorator(target, key, index);
const route = (name, decorators) =>
  Object.defineProperty(
    Endpoints.prototype,
    name,
    Reflect.decorate(decorators, Endpoints.prototype, name, Object.getOwnPropertyDescriptor(Endpoints.prototype, name)),
  );
const noStore = [common.Header('Cache-Control', 'no-store'), common.Header('Pragma', 'no-cache')];
route('token', [
  common.Post('connect/token'),
  common.HttpCode(200),
  common.UseGuards(ClientGuard),
  ...noStore,
  parameter(common.Req(), 0),
  parameter(common.Body(), 1),
]);
route('userinfo', [common.Get('connect/userinfo'), ...noStore, parameter(common.Req(), 0)]);
route('authorize', [common.Get('connect/authorize'), ...noStore, parameter(common.Req(), 0)]);
route('health', [common.Get('health')]);
Reflect.decorate([common.Controller()], Endpoints);

class FloorModule {}
Reflect.decorate([common.Module({ controllers: [Endpoints] })], FloorModule);

async function main() {
  /** @type {import('@nestjs/platform-fastify').NestFastifyApplication} */
  const app = await NestFactory.create(FloorModule, new FastifyAdapter({ keepAliveTimeout: 5000 }), { logger: false });
  await app.listen({ port: Number(process.env.PORT || 0), host: process.env.HOST || '127.0.0.1' });
  const { port } = /** @type {import('node:net').AddressInfo} */ (app.getHttpServer().address());
  handlers.setIssuer(process.env.ISSUER || `http://localhost:${port}`);
  process.stdout.write(JSON.stringify({ listening: port, algorithm: handlers.algorithm, jwt: 'nestjs', framework: 'nest-fastify' }) + '\n');
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

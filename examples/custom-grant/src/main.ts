import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, TollgateModule } from 'tollgate';
import { migrations } from '../migrations';
import { PartnerKeyModule } from './partner-key.grant';

// The environment, validated as Tollgate's own service does (its docs/configuration.md).
const config = loadConfig();

/** Your application: its own modules beside Tollgate, which serves the grants your modules export. */
@Module({ imports: [TollgateModule.forRoot({ config, grants: [PartnerKeyModule], migrations })] })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter());
  app.enableShutdownHooks();
  await app.listen({ port: config.port, host: config.host });
  console.log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { serveSessionsInTurn } from '../../src/platform/database/pglite-session-queue';
import { createApp, type AppOptions } from '../../src/app.factory';
import { loadConfig, type AppConfig } from '../../src/platform/config/app.config';

export const ISSUER = 'http://tollgate.test';
export const TEST_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

/** This Jest worker's fresh database (see global-setup.ts): one per worker, so specs in parallel never share one. */
export function testDatabaseUrl(): string {
  const urls = process.env.TEST_DATABASE_URLS?.split(' ').filter(Boolean) ?? [];
  if (urls.length === 0) throw new Error('TEST_DATABASE_URLS is not set: run the tests through jest (global-setup.ts)');
  return urls[(Number(process.env.JEST_WORKER_ID ?? '1') - 1) % urls.length];
}

/** Throttling is off unless a spec turns it on: specs share one source address. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    DATABASE_URL: testDatabaseUrl(),
    ISSUER,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'silent',
    DATABASE_POOL_SIZE: '4',
    RATE_LIMIT_AUTH_FAILURES: '0',
    RATE_LIMIT_ANONYMOUS_AUTH_FAILURES: '0',
    SIGN_IN_FAILURES_BEFORE_BACKOFF: '0',
    SIGN_IN_ADDRESS_FAILURES: '0',
    PASSWORD_HASHING_CONCURRENCY: '0',
    RATE_LIMIT_METADATA_DOCUMENTS: '0',
    // One key-encryption key for the run: specs reach the shared database by different URLs (proxies).
    KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
    ...env,
  });
}

export interface TestServer {
  readonly app: NestFastifyApplication;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  close(): Promise<void>;
}

/** The same application `main.ts` serves, on the run's database with the demo data, listening on a free port. */
export async function startTestServer(env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestServer> {
  const app = await createApp(testConfig(env), options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('server did not listen on a TCP port');
  return { app, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

/** Runs SQL against the test database, for arranging data (not for asserting protocol behaviour). */
export async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A database of its own, empty (no migrations), for specs that must not share the run's. */
export async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const name = `tollgate_spec_${Date.now()}_${randomBytes(4).toString('hex')}`;
    await sql(`CREATE DATABASE ${name}`);
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: async () => void (await sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create('memory://');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 50 });
  serveSessionsInTurn(server, db);
  await server.start();
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    drop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

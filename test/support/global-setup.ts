import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/platform/database/database.config';
import { seedDemoData } from '../../src/demo/demo-data.seeder';
import { runMigrationsExclusively } from '../../src/platform/database/migration-runner';
import { serveSessionsInTurn } from '../../src/platform/database/pglite-session-queue';
import { PgliteTemplate } from '../../src/platform/database/pglite-template';

/**
 * Fresh databases for a test run, one per Jest worker, so that workers never see each other's
 * clients, keys or outages: on the PostgreSQL named by DATABASE_URL when there is one, else on
 * in-memory PGlites served over the wire protocol. Each is migrated and seeded with the demo data
 * here, as the service does at start, so that a spec may read or write it before it starts one.
 * Specs read theirs with testDatabaseUrl().
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  const workers = Math.max(1, globalConfig.maxWorkers);
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const run = `tollgate_test_${Date.now()}_${process.pid}`;
    const names = workers === 1 ? [run] : Array.from({ length: workers }, (_, index) => `${run}_${index + 1}`);
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const urls = names.map((name) => {
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    });
    await Promise.all(urls.map(prepare));
    process.env.TEST_DATABASE_URLS = urls.join(' ');
    process.env.TEST_DATABASE_NAMES = names.join(' ');
    console.log(`\nTests run on PostgreSQL, fresh database${names.length > 1 ? 's' : ''} ${names.join(', ')}`);
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const template = await PgliteTemplate.forInstalledVersion().read();
  const servers = await Promise.all(
    Array.from({ length: workers }, async () => {
      const db = await PGlite.create('memory://', template ? { loadDataDir: template } : {});
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
      serveSessionsInTurn(server, db);
      await server.start();
      return { url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`, stop: () => server.stop().then(() => db.close()) };
    }),
  );
  (globalThis as { __pglite?: { stop: () => Promise<void> } }).__pglite = {
    stop: async () => void (await Promise.all(servers.map((server) => server.stop()))),
  };
  await Promise.all(servers.map((server) => prepare(server.url)));
  process.env.TEST_DATABASE_URLS = servers.map((server) => server.url).join(' ');
  console.log(`\nDATABASE_URL is not set: tests run on ${workers === 1 ? 'an in-memory PGlite' : `${workers} in-memory PGlites`}`);
}

/** The schema and the demo data set, as a start with SEED_DEMO=true leaves them. */
async function prepare(url: string): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptions(url, 2)).initialize();
  try {
    await runMigrationsExclusively(dataSource);
    await seedDemoData(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

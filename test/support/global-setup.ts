import { Client } from 'pg';
import { serveSessionsInTurn } from '../../src/database/pglite-session-queue';

/**
 * One fresh database per test run: on the PostgreSQL named by DATABASE_URL when there is one,
 * else on an in-memory PGlite served over the wire protocol. Specs read TEST_DATABASE_URL.
 */
export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `tollgate_test_${Date.now()}_${process.pid}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    process.env.TEST_DATABASE_URL = url.toString();
    process.env.TEST_DATABASE_NAME = name;
    console.log(`\nTests run on PostgreSQL, fresh database ${name}`);
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create('memory://');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
  serveSessionsInTurn(server, db);
  await server.start();
  (globalThis as { __pglite?: { stop: () => Promise<void> } }).__pglite = {
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
  process.env.TEST_DATABASE_URL = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  console.log('\nDATABASE_URL is not set: tests run on an in-memory PGlite');
}

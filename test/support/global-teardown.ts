import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __pglite?: { stop: () => Promise<void> } }).__pglite?.stop();
  const name = process.env.TEST_DATABASE_NAME;
  if (process.env.DATABASE_URL && name) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

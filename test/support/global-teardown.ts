import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __pglite?: { stop: () => Promise<void> } }).__pglite?.stop();
  const names = process.env.TEST_DATABASE_NAMES?.split(' ').filter(Boolean) ?? [];
  if (process.env.DATABASE_URL && names.length > 0) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

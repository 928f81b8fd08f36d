import { DataSource } from 'typeorm';
import { emptyDatabase, startTestServer, type TestServer } from './create-test-app';

/** A database of a migration spec's own, that the service migrated at start, with a TypeORM connection to it. */
export interface MigratedDatabase {
  readonly dataSource: DataSource;
  /** The column names of a table (none for a table that does not exist). */
  columns(table: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts the service once on an empty database (it applies every migration), runs `whileServing`, and connects to the database. */
export async function migratedDatabase(env: Record<string, string> = {}, whileServing?: (server: TestServer) => Promise<void>): Promise<MigratedDatabase> {
  const database = await emptyDatabase();
  let dataSource: DataSource;
  try {
    const server = await startTestServer({ ...env, DATABASE_URL: database.url });
    try {
      await whileServing?.(server);
    } finally {
      await server.close();
    }
    dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    dataSource,
    async columns(table) {
      const rows: { column_name: string }[] = await dataSource.query('SELECT column_name FROM information_schema.columns WHERE table_name = $1', [table]);
      return rows.map((row) => row.column_name);
    },
    async close() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

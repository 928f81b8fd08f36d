import { DataSource } from 'typeorm';
import { Passkeys1766460000000 } from '../../migrations/1766460000000-Passkeys';
import { emptyDatabase, startTestServer } from '../support/create-test-app';

/** The migration of passkeys and step-up (docs/passkeys.md): `down` removes what `up` added, and `up` applies again. */
describe('migration Passkeys', () => {
  let database: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await emptyDatabase();
    // The service applies every migration to the empty database at start.
    await (await startTestServer({ DATABASE_URL: database.url })).close();
    dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const columns = async (table: string) =>
    ((await dataSource.query('SELECT column_name FROM information_schema.columns WHERE table_name = $1', [table])) as { column_name: string }[]).map(
      (row) => row.column_name,
    );

  it('down removes the passkeys table and the step-up columns; up puts them back', async () => {
    const migration = new Passkeys1766460000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await columns('passkeys')).toEqual([]);
      expect(await columns('clients')).not.toContain('require_phr');
      expect(await columns('device_authorizations')).not.toContain('acr_values');
      await migration.up(runner);
      expect(await columns('passkeys')).toEqual(expect.arrayContaining(['credential_id', 'subject_id', 'user_handle', 'public_key', 'sign_count', 'name']));
      expect(await columns('clients')).toContain('require_phr');
      expect(await columns('device_authorizations')).toContain('acr_values');
    } finally {
      await runner.release();
    }
  });
});

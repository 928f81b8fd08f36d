import { DataSource } from 'typeorm';
import { SelfRegisteredClients1766300000000 } from '../../migrations/1766300000000-SelfRegisteredClients';
import { emptyDatabase, startTestServer } from '../support/create-test-app';
import { request } from '../support/http';

/** The migration of self-registered clients (docs/agents.md): `down` removes what `up` added, and `up` applies again. */
describe('migration SelfRegisteredClients', () => {
  let database: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await emptyDatabase();
    // The service applies every migration to the empty database at start; one client registers itself.
    const server = await startTestServer({ DATABASE_URL: database.url, DYNAMIC_REGISTRATION: 'open' });
    try {
      const registered = await request(`${server.url}/connect/register`, {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: ['https://agent.example/cb'] }),
        headers: { 'content-type': 'application/json' },
      });
      expect(registered.status).toBe(201);
    } finally {
      await server.close();
    }
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

  it('down removes the registered clients, the columns and the token table; up puts them back', async () => {
    const migration = new SelfRegisteredClients1766300000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await columns('clients')).not.toContain('self_registered');
      expect(await columns('clients')).not.toContain('registration_access_token_hash');
      expect(await columns('api_resources')).not.toContain('open_to_self_registered');
      expect(await columns('registration_tokens')).toEqual([]);
      expect(await dataSource.query("SELECT 1 FROM clients WHERE client_id LIKE 'dyn-%'")).toEqual([]);
      await migration.up(runner);
      expect(await columns('clients')).toEqual(expect.arrayContaining(['self_registered', 'registration', 'registration_access_token_hash', 'last_used_at']));
      expect(await columns('api_resources')).toContain('open_to_self_registered');
      expect(await columns('registration_tokens')).toContain('token_hash');
    } finally {
      await runner.release();
    }
  });
});

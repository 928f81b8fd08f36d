import { SelfRegisteredClients1766300000000 } from '../../migrations/1766300000000-SelfRegisteredClients';
import { request } from '../support/http';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/** The migration of self-registered clients (docs/agents.md): `down` removes what `up` added, and `up` applies again. */
describe('migration SelfRegisteredClients', () => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    // The service applies every migration to the empty database at start; one client registers itself.
    database = await migratedDatabase({ DYNAMIC_REGISTRATION: 'open' }, async (server) => {
      const registered = await request(`${server.url}/connect/register`, {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: ['https://agent.example/cb'] }),
        headers: { 'content-type': 'application/json' },
      });
      expect(registered.status).toBe(201);
    });
  }, 120_000);
  afterAll(() => database?.close());

  it('down removes the registered clients, the columns and the token table; up puts them back', async () => {
    const migration = new SelfRegisteredClients1766300000000();
    const runner = database.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await database.columns('clients')).not.toContain('self_registered');
      expect(await database.columns('clients')).not.toContain('registration_access_token_hash');
      expect(await database.columns('api_resources')).not.toContain('open_to_self_registered');
      expect(await database.columns('registration_tokens')).toEqual([]);
      expect(await database.dataSource.query("SELECT 1 FROM clients WHERE client_id LIKE 'dyn-%'")).toEqual([]);
      await migration.up(runner);
      expect(await database.columns('clients')).toEqual(
        expect.arrayContaining(['self_registered', 'registration', 'registration_access_token_hash', 'last_used_at']),
      );
      expect(await database.columns('api_resources')).toContain('open_to_self_registered');
      expect(await database.columns('registration_tokens')).toContain('token_hash');
    } finally {
      await runner.release();
    }
  });
});

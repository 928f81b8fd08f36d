import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a generated client migration changed on an existing client, as it was before (docs/operations.md#changing-what-exists):
 * `--disable` and `--may-act`/`--transaction-tokens` record the settings they overwrite, keyed by the
 * migration's name, so that their `down` puts back exactly what was there.
 */
export class ClientSettingsHistory1764900000000 implements MigrationInterface {
  name = 'ClientSettingsHistory1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE client_settings_before_migration (
        migration text PRIMARY KEY,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        settings jsonb NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE client_settings_before_migration');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A client's display name (`client_name`, OpenID Connect Dynamic Client Registration §2), shown on
 * the consent page instead of its id; and what a generated resource migration changed on an
 * existing API resource, as it was before, keyed by the migration's name, so that its `down`
 * restores exactly that (as client_settings_before_migration does for clients).
 */
export class ClientNamesAndResourceHistory1765600000000 implements MigrationInterface {
  name = 'ClientNamesAndResourceHistory1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE clients ADD COLUMN client_name text CHECK (length(client_name) BETWEEN 1 AND 200)');
    await queryRunner.query(`
      CREATE TABLE api_resource_settings_before_migration (
        migration text PRIMARY KEY,
        name text NOT NULL REFERENCES api_resources (name) ON DELETE CASCADE,
        settings jsonb NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE api_resource_settings_before_migration');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN client_name');
  }
}

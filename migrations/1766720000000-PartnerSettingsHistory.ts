import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a generated `issuer:migration --partner <issuer> --change` replaced on a partner
 * authorization server (docs/chaining.md): its settings and its clients' ids there, as they were,
 * keyed by the migration's name, so that its `down` restores exactly that.
 */
export class PartnerSettingsHistory1766720000000 implements MigrationInterface {
  name = 'PartnerSettingsHistory1766720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE partner_settings_before_migration (
        migration text PRIMARY KEY,
        issuer text NOT NULL REFERENCES partner_authorization_servers (issuer) ON DELETE CASCADE,
        settings jsonb NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE partner_settings_before_migration');
  }
}

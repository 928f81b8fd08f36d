import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a generated issuer migration changed on a registered subject issuer, as it was before
 * (docs/delegation.md#tokens-from-your-identity-provider): the settings it replaced and the clients
 * it made trust the issuer, keyed by the migration's name, so that its `down` restores exactly that.
 */
export class TrustedIssuerSettingsHistory1765000100000 implements MigrationInterface {
  name = 'TrustedIssuerSettingsHistory1765000100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE trusted_issuer_settings_before_migration (
        migration text PRIMARY KEY,
        issuer text NOT NULL REFERENCES trusted_issuers (issuer) ON DELETE CASCADE,
        settings jsonb NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE trusted_issuer_settings_before_migration');
  }
}

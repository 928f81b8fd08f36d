import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subject-token issuers (docs/delegation.md#tokens-from-your-identity-provider): what a trusted
 * issuer's tokens must say to be exchanged — the audience their `aud` must contain, the claim that
 * matches a local user (compared with the user's claim of the same name), the identity scopes an
 * exchanged token may carry — and which clients trust it (`client_subject_issuers`). A subject
 * issuer without an audience or a user claim is accepted by no one.
 */
export class SubjectIssuers1764800100000 implements MigrationInterface {
  name = 'SubjectIssuers1764800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE trusted_issuers
        ADD COLUMN subject_audience text,
        ADD COLUMN subject_user_claim text,
        ADD COLUMN subject_identity_scopes text[] NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`
      CREATE TABLE client_subject_issuers (
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        issuer text NOT NULL REFERENCES trusted_issuers (issuer) ON DELETE CASCADE,
        PRIMARY KEY (client_id, issuer)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE client_subject_issuers');
    await queryRunner.query(`
      ALTER TABLE trusted_issuers
        DROP COLUMN subject_identity_scopes,
        DROP COLUMN subject_user_claim,
        DROP COLUMN subject_audience`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys and step-up (docs/passkeys.md): the users' WebAuthn credentials (public keys only), the
 * clients that require a phishing-resistant sign-in, and the `acr` a device authorization request asks for.
 */
export class Passkeys1766460000000 implements MigrationInterface {
  name = 'Passkeys1766460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE passkeys (
        credential_id text PRIMARY KEY,
        subject_id text NOT NULL,
        user_handle text NOT NULL,
        public_key bytea NOT NULL,
        sign_count bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        authenticator_attachment text,
        backed_up boolean NOT NULL DEFAULT false,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX passkeys_subject_id_idx ON passkeys (subject_id)');
    await queryRunner.query('ALTER TABLE clients ADD COLUMN require_phr boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE device_authorizations ADD COLUMN acr_values text[]');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE device_authorizations DROP COLUMN acr_values');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN require_phr');
    await queryRunner.query('DROP TABLE passkeys');
  }
}

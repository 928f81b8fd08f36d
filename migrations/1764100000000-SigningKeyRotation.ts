import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing-key rotation across instances (docs/operations.md#signing-keys-propagation-time): a key is published from `created_at`, signs
 * from `activates_at`, stays published until `retires_at`; `retired_at` records when a rotation
 * check ended its publication. `public_key` lets every instance publish a key without opening its
 * private part, which is now sealed with AES-256-GCM under KEY_ENCRYPTION_KEY (existing plaintext
 * rows are re-sealed by the first instance that runs a rotation check).
 */
export class SigningKeyRotation1764100000000 implements MigrationInterface {
  name = 'SigningKeyRotation1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE signing_keys
        ADD COLUMN public_key text,
        ADD COLUMN activates_at timestamptz,
        ADD COLUMN retires_at timestamptz`);
    // Existing keys signed from their creation; retired ones end where they ended.
    await queryRunner.query('UPDATE signing_keys SET activates_at = created_at, retires_at = retired_at');
    await queryRunner.query('ALTER TABLE signing_keys ALTER COLUMN activates_at SET NOT NULL, ALTER COLUMN activates_at SET DEFAULT now()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Sealed private keys stay sealed: the previous version cannot read them, so keep a backup of the
    // plaintext-era rows (or KEY_ENCRYPTION_KEY) before going back.
    await queryRunner.query('ALTER TABLE signing_keys DROP COLUMN retires_at, DROP COLUMN activates_at, DROP COLUMN public_key');
  }
}

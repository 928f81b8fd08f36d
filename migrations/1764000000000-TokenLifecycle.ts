import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Refresh tokens (RFC 6749 §6, rotated per RFC 9700 §4.14.2) and the access-token deny list (RFC 7009). */
export class TokenLifecycle1764000000000 implements MigrationInterface {
  name = 'TokenLifecycle1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Only the SHA-256 of a refresh token is stored; the handle itself is returned once and forgotten.
    // No foreign key to users: a grant's subject need not be a local user (its refresh then fails).
    await queryRunner.query(`
      CREATE TABLE refresh_tokens (
        token_hash text PRIMARY KEY,
        family_id uuid NOT NULL,
        subject_id text NOT NULL,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        scopes text[] NOT NULL,
        auth_time timestamptz NOT NULL,
        authentication_methods text[] NOT NULL DEFAULT '{}',
        access_token_jti text,
        access_token_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        revoked_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX refresh_tokens_family_id_idx ON refresh_tokens (family_id)');
    await queryRunner.query('CREATE INDEX refresh_tokens_expires_at_idx ON refresh_tokens (expires_at)');
    await queryRunner.query(`
      CREATE TABLE revoked_access_tokens (
        jti text PRIMARY KEY,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX revoked_access_tokens_revoked_at_idx ON revoked_access_tokens (revoked_at)');
    await queryRunner.query('CREATE INDEX revoked_access_tokens_expires_at_idx ON revoked_access_tokens (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE revoked_access_tokens');
    await queryRunner.query('DROP TABLE refresh_tokens');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browser sign-in (docs/browser-sign-in.md): client registration for the authorization code flow,
 * server-side sign-in sessions, authorization codes and remembered consents.
 * Handles (session cookie, code) are stored only as SHA-256 hashes, like refresh tokens.
 */
export class BrowserSignIn1764600000000 implements MigrationInterface {
  name = 'BrowserSignIn1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE clients
        ADD COLUMN public_client boolean NOT NULL DEFAULT false,
        ADD COLUMN redirect_uris text[] NOT NULL DEFAULT '{}',
        ADD COLUMN post_logout_redirect_uris text[] NOT NULL DEFAULT '{}',
        ADD COLUMN require_consent boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`
      CREATE TABLE sign_in_sessions (
        handle_hash text PRIMARY KEY,
        session_id text NOT NULL UNIQUE,
        subject_id text NOT NULL,
        auth_time timestamptz NOT NULL,
        authentication_methods text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX sign_in_sessions_expires_at_idx ON sign_in_sessions (expires_at)');
    await queryRunner.query(`
      CREATE TABLE authorization_codes (
        code_hash text PRIMARY KEY,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL,
        nonce text,
        scopes text[] NOT NULL,
        subject_id text NOT NULL,
        session_id text NOT NULL,
        auth_time timestamptz NOT NULL,
        authentication_methods text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        replayed_at timestamptz,
        access_token_jti text,
        access_token_expires_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX authorization_codes_expires_at_idx ON authorization_codes (expires_at)');
    await queryRunner.query(`
      CREATE TABLE consents (
        subject_id text NOT NULL,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        scopes text[] NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (subject_id, client_id)
      )`);
    // A refresh-token family that began with a sign-in keeps its session for the ID tokens of refreshes.
    await queryRunner.query('ALTER TABLE refresh_tokens ADD COLUMN session_id text');
    // A replayed code revokes the refresh-token family issued with its access token.
    await queryRunner.query('CREATE INDEX refresh_tokens_access_token_jti_idx ON refresh_tokens (access_token_jti)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX refresh_tokens_access_token_jti_idx');
    await queryRunner.query('ALTER TABLE refresh_tokens DROP COLUMN session_id');
    for (const table of ['consents', 'authorization_codes', 'sign_in_sessions']) await queryRunner.query(`DROP TABLE ${table}`);
    await queryRunner.query(`
      ALTER TABLE clients
        DROP COLUMN require_consent,
        DROP COLUMN post_logout_redirect_uris,
        DROP COLUMN redirect_uris,
        DROP COLUMN public_client`);
  }
}

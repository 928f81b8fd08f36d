import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Device authorization requests (RFC 8628, docs/device-authorization.md): by a SHA-256 hash of their
 * `device_code`, found from the verification page by their user code, approved or denied there, and
 * redeemed once at the token endpoint.
 */
export class DeviceAuthorizations1766100000000 implements MigrationInterface {
  name = 'DeviceAuthorizations1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE device_authorizations (
        device_code_hash text PRIMARY KEY,
        user_code text NOT NULL UNIQUE,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        scopes text[] NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'redeemed')),
        subject text,
        session_id text,
        auth_time bigint,
        authentication_methods text[],
        interval_seconds integer NOT NULL,
        last_polled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX device_authorizations_expires_at_idx ON device_authorizations (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE device_authorizations');
  }
}

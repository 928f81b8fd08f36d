import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pushed authorization requests (RFC 9126, docs/browser-sign-in.md#pushed-authorization-requests--post-connectpar):
 * the requests clients push, by a SHA-256 hash of their `request_uri`, and the clients that must push.
 */
export class PushedAuthorizationRequests1765900000000 implements MigrationInterface {
  name = 'PushedAuthorizationRequests1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE clients ADD COLUMN require_pushed_authorization_requests boolean NOT NULL DEFAULT false');
    await queryRunner.query(`
      CREATE TABLE pushed_authorization_requests (
        request_uri_hash text PRIMARY KEY,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        parameters jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        claimed_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX pushed_authorization_requests_client_expires_idx ON pushed_authorization_requests (client_id, expires_at)');
    await queryRunner.query('CREATE INDEX pushed_authorization_requests_expires_at_idx ON pushed_authorization_requests (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE pushed_authorization_requests');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN require_pushed_authorization_requests');
  }
}

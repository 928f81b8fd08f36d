import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The address an anonymous pushed authorization request or device authorization came from, so that
 * pending ones are bounded per (client, address) as well as per client: a flood from one address
 * cannot lock a public client out (docs/throttling.md#pending-requests).
 */
export class PendingRequestsByAddress1766450000000 implements MigrationInterface {
  name = 'PendingRequestsByAddress1766450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['pushed_authorization_requests', 'device_authorizations']) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN requested_from text`);
      await queryRunner.query(`CREATE INDEX ${table}_client_from_idx ON ${table} (client_id, requested_from, expires_at) WHERE requested_from IS NOT NULL`);
    }
    await queryRunner.query('CREATE INDEX device_authorizations_client_expires_idx ON device_authorizations (client_id, expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX device_authorizations_client_expires_idx');
    for (const table of ['pushed_authorization_requests', 'device_authorizations']) {
      await queryRunner.query(`DROP INDEX ${table}_client_from_idx`);
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN requested_from`);
    }
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A logout revokes its session's unredeemed authorization codes (docs/browser-sign-in.md#logout--get-or-post-connectendsession):
 * this index finds them without reading every code.
 */
export class AuthorizationCodesBySession1765400000000 implements MigrationInterface {
  name = 'AuthorizationCodesBySession1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX authorization_codes_session_id_idx ON authorization_codes (session_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX authorization_codes_session_id_idx');
  }
}

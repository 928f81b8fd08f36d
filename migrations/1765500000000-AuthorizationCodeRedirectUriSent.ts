import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 6749 §4.1.3: the token request must repeat `redirect_uri` only when the authorization request
 * carried it; a code remembers whether it did. Codes issued before keep the strict check.
 */
export class AuthorizationCodeRedirectUriSent1765500000000 implements MigrationInterface {
  name = 'AuthorizationCodeRedirectUriSent1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE authorization_codes ADD COLUMN redirect_uri_sent boolean NOT NULL DEFAULT true');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE authorization_codes DROP COLUMN redirect_uri_sent');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 9449 §10 (docs/dpop.md#binding-the-authorization-code): the DPoP key an authorization code is
 * bound to, by its RFC 7638 thumbprint; null for an unbound code.
 */
export class AuthorizationCodeDpopBinding1766400000000 implements MigrationInterface {
  name = 'AuthorizationCodeDpopBinding1766400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE authorization_codes ADD COLUMN dpop_jkt text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE authorization_codes DROP COLUMN dpop_jkt');
  }
}

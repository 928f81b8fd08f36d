import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * DPoP (RFC 9449, docs/dpop.md): clients that must send proofs, and the key a public client's
 * refresh-token family is bound to (its RFC 7638 thumbprint).
 */
export class DpopBinding1766200000000 implements MigrationInterface {
  name = 'DpopBinding1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE clients ADD COLUMN require_dpop boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE refresh_tokens DROP COLUMN dpop_jkt');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN require_dpop');
  }
}

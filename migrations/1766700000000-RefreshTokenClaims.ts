import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * docs/tokens.md#refresh-tokens: a refresh keeps what its grant first issued — the claims the grant
 * added to the access token, and the audience it named (null: the API resources of the scopes, or
 * the RFC 8707 resources of `resources`).
 */
export class RefreshTokenClaims1766700000000 implements MigrationInterface {
  name = 'RefreshTokenClaims1766700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE refresh_tokens ADD COLUMN claims jsonb, ADD COLUMN audience text[]');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE refresh_tokens DROP COLUMN claims, DROP COLUMN audience');
  }
}

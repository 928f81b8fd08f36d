import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 8707: the resource URIs an authorization code and a refresh-token family were authorized for,
 * the audience of their tokens. Codes and families from before have none (audience by scope).
 */
export class ResourceIndicators1766000000000 implements MigrationInterface {
  name = 'ResourceIndicators1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE authorization_codes ADD COLUMN resources text[] NOT NULL DEFAULT '{}'");
    await queryRunner.query("ALTER TABLE refresh_tokens ADD COLUMN resources text[] NOT NULL DEFAULT '{}'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE refresh_tokens DROP COLUMN resources');
    await queryRunner.query('ALTER TABLE authorization_codes DROP COLUMN resources');
  }
}

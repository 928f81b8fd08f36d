import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Finding the user whose claim matches a trusted identity provider's token
 * (docs/delegation.md#matching-the-external-subject) by any claim name: `claims @> {name: value}`
 * reads this index instead of every user row.
 */
export class UserClaimsIndex1765000000000 implements MigrationInterface {
  name = 'UserClaimsIndex1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX users_claims ON users USING gin (claims jsonb_path_ops)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX users_claims');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An API resource may have a resource URI (RFC 8707: absolute, no fragment) and may name the client
 * that serves it. A token is addressed to a client when its `aud` names the client, or a resource the
 * client serves by name or URI (docs/tokens.md#addressed-to-a-client). No foreign key: a resource may
 * be added before the client that serves it.
 */
export class ApiResourceServers1765100000000 implements MigrationInterface {
  name = 'ApiResourceServers1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_resources
        ADD COLUMN resource_uri text UNIQUE,
        ADD COLUMN serving_client_id text`);
    await queryRunner.query('CREATE INDEX api_resources_serving_client_id ON api_resources (serving_client_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX api_resources_serving_client_id');
    await queryRunner.query('ALTER TABLE api_resources DROP COLUMN serving_client_id, DROP COLUMN resource_uri');
  }
}

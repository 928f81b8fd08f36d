import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delegation policies per client (docs/delegation.md, docs/transaction-tokens.md):
 * `may_act_client_id` makes the client's user tokens carry RFC 8693 §4.4 `may_act`, naming the only
 * client that may act for the user; `transaction_tokens` lets the client obtain transaction tokens.
 */
export class DelegationPolicies1764800000000 implements MigrationInterface {
  name = 'DelegationPolicies1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE clients
        ADD COLUMN may_act_client_id text,
        ADD COLUMN transaction_tokens boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE clients DROP COLUMN transaction_tokens, DROP COLUMN may_act_client_id');
  }
}

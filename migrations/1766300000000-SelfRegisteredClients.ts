import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients that register themselves (docs/agents.md): API resources an operator opens to them;
 * their rows in `clients` (`self_registered`: a metadata document's row anchors its codes, tokens
 * and consents; a dynamically registered client's holds its RFC 7591 metadata and the hash of its
 * RFC 7592 registration access token), when they were last used; initial access tokens.
 */
export class SelfRegisteredClients1766300000000 implements MigrationInterface {
  name = 'SelfRegisteredClients1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_resources ADD COLUMN open_to_self_registered boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE clients ADD COLUMN self_registered text');
    await queryRunner.query('ALTER TABLE clients ADD COLUMN registration jsonb');
    await queryRunner.query('ALTER TABLE clients ADD COLUMN registration_access_token_hash text');
    await queryRunner.query('ALTER TABLE clients ADD COLUMN last_used_at timestamptz');
    await queryRunner.query('CREATE INDEX clients_dynamic_last_used ON clients (last_used_at) WHERE self_registered IS NOT NULL');
    await queryRunner.query(`CREATE TABLE registration_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash text NOT NULL UNIQUE,
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE registration_tokens');
    await queryRunner.query('DELETE FROM clients WHERE self_registered IS NOT NULL');
    await queryRunner.query('DROP INDEX clients_dynamic_last_used');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN last_used_at');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN registration_access_token_hash');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN registration');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN self_registered');
    await queryRunner.query('ALTER TABLE api_resources DROP COLUMN open_to_self_registered');
  }
}

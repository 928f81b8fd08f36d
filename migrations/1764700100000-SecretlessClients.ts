import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients without secrets (docs/workload-identity.md): a JWK Set or `jwks_uri` for private_key_jwt
 * (RFC 7523 §2.2), bindings to workload identities of trusted workload issuers, and the `jti`s of
 * client assertions already used, shared by every instance until they expire.
 */
export class SecretlessClients1764700100000 implements MigrationInterface {
  name = 'SecretlessClients1764700100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE clients
        ADD COLUMN jwks jsonb,
        ADD COLUMN jwks_uri text,
        ADD CONSTRAINT clients_one_key_source CHECK (jwks IS NULL OR jwks_uri IS NULL)`);
    await queryRunner.query(`
      CREATE TABLE client_workload_identities (
        issuer text NOT NULL REFERENCES trusted_issuers (issuer) ON DELETE CASCADE,
        subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 2048),
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);
    await queryRunner.query('CREATE INDEX client_workload_identities_client_id ON client_workload_identities (client_id)');
    await queryRunner.query(`
      CREATE TABLE client_assertion_jtis (
        client_id text NOT NULL,
        jti text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (client_id, jti)
      )`);
    await queryRunner.query('CREATE INDEX client_assertion_jtis_expires_at ON client_assertion_jtis (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE client_assertion_jtis');
    await queryRunner.query('DROP TABLE client_workload_identities');
    await queryRunner.query('ALTER TABLE clients DROP CONSTRAINT clients_one_key_source, DROP COLUMN jwks_uri, DROP COLUMN jwks');
  }
}

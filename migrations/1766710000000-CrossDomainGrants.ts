import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tokens across trust domains (docs/chaining.md). Receiving: a trusted issuer may have the role
 * `authorization-grant` (RFC 7523 JWT authorization grants, ID-JAG), with the claim that maps an
 * assertion's subject to a local user (`sub` itself, or e.g. `email`), the identity scopes its
 * assertions may carry, their maximum lifetime, and the clients that may present them. Issuing:
 * partner authorization servers, by issuer, with the resource URIs they serve and, for each of our
 * clients that may ask for grants addressed to them, the `client_id` that client has there.
 */
export class CrossDomainGrants1766710000000 implements MigrationInterface {
  name = 'CrossDomainGrants1766710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE trusted_issuers DROP CONSTRAINT trusted_issuers_role_check');
    await queryRunner.query(`ALTER TABLE trusted_issuers ADD CONSTRAINT trusted_issuers_role_check CHECK (role IN ('workload', 'subject', 'authorization-grant'))`);
    await queryRunner.query(`ALTER TABLE trusted_issuers ADD CONSTRAINT trusted_issuers_authorization_grant_kind CHECK (role <> 'authorization-grant' OR kind = 'jwt')`);
    await queryRunner.query(`
      CREATE TABLE authorization_grant_issuers (
        issuer text PRIMARY KEY REFERENCES trusted_issuers (issuer) ON DELETE CASCADE,
        user_claim text NOT NULL DEFAULT 'sub' CHECK (length(user_claim) BETWEEN 1 AND 100),
        identity_scopes text[] NOT NULL DEFAULT '{}',
        max_lifetime_seconds integer NOT NULL DEFAULT 300 CHECK (max_lifetime_seconds BETWEEN 1 AND 86400)
      )`);
    await queryRunner.query(`
      CREATE TABLE client_authorization_grant_issuers (
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        issuer text NOT NULL REFERENCES authorization_grant_issuers (issuer) ON DELETE CASCADE,
        PRIMARY KEY (client_id, issuer)
      )`);
    await queryRunner.query(`
      CREATE TABLE partner_authorization_servers (
        issuer text PRIMARY KEY CHECK (length(issuer) BETWEEN 1 AND 500),
        resources text[] NOT NULL DEFAULT '{}',
        enabled boolean NOT NULL DEFAULT true,
        description text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE partner_authorization_server_clients (
        issuer text NOT NULL REFERENCES partner_authorization_servers (issuer) ON DELETE CASCADE,
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        partner_client_id text NOT NULL CHECK (length(partner_client_id) BETWEEN 1 AND 500),
        PRIMARY KEY (issuer, client_id)
      )`);
    await queryRunner.query('CREATE INDEX partner_authorization_server_clients_by_client ON partner_authorization_server_clients (client_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE partner_authorization_server_clients');
    await queryRunner.query('DROP TABLE partner_authorization_servers');
    await queryRunner.query('DROP TABLE client_authorization_grant_issuers');
    await queryRunner.query('DROP TABLE authorization_grant_issuers');
    await queryRunner.query(`DELETE FROM trusted_issuers WHERE role = 'authorization-grant'`);
    await queryRunner.query('ALTER TABLE trusted_issuers DROP CONSTRAINT trusted_issuers_authorization_grant_kind');
    await queryRunner.query('ALTER TABLE trusted_issuers DROP CONSTRAINT trusted_issuers_role_check');
    await queryRunner.query(`ALTER TABLE trusted_issuers ADD CONSTRAINT trusted_issuers_role_check CHECK (role IN ('workload', 'subject'))`);
  }
}

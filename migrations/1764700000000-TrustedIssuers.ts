import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issuers whose JWTs Tollgate accepts (docs/trusted-issuers.md): workload issuers (Kubernetes,
 * SPIFFE trust domains) for client authentication, subject issuers for token exchange. Each has its
 * keys inline or a `jwks_uri`. Role-specific settings are columns of their own, added by the
 * migration of the feature that reads them (nullable or with a default), so rows of the other role
 * are untouched; which clients trust which issuer lives in tables that reference `issuer`.
 */
export class TrustedIssuers1764700000000 implements MigrationInterface {
  name = 'TrustedIssuers1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE trusted_issuers (
        issuer text PRIMARY KEY CHECK (length(issuer) BETWEEN 1 AND 500),
        role text NOT NULL CHECK (role IN ('workload', 'subject')),
        kind text NOT NULL CHECK (kind IN ('kubernetes', 'spiffe', 'jwt')),
        jwks jsonb,
        jwks_uri text,
        enabled boolean NOT NULL DEFAULT true,
        description text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT trusted_issuers_one_key_source CHECK ((jwks IS NULL) <> (jwks_uri IS NULL)),
        CONSTRAINT trusted_issuers_workload_kind CHECK (role <> 'workload' OR kind IN ('kubernetes', 'spiffe')),
        CONSTRAINT trusted_issuers_spiffe_id CHECK (kind <> 'spiffe' OR issuer ~ '^spiffe://[a-z0-9._-]+$')
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE trusted_issuers');
  }
}

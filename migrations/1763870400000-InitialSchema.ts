import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763870400000 implements MigrationInterface {
  name = 'InitialSchema1763870400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE clients (
        client_id text PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT true,
        allowed_grant_types text[] NOT NULL DEFAULT '{}',
        allowed_scopes text[] NOT NULL DEFAULT '{}',
        access_token_lifetime integer NOT NULL DEFAULT 3600 CHECK (access_token_lifetime > 0),
        refresh_token_lifetime integer NOT NULL DEFAULT 2592000 CHECK (refresh_token_lifetime > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE client_secrets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
        value_hash text NOT NULL,
        description text,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (client_id, value_hash)
      )`);
    await queryRunner.query(`
      CREATE TABLE users (
        subject_id text PRIMARY KEY,
        username text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        claims jsonb NOT NULL DEFAULT '{}',
        roles text[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE identity_resources (
        name text PRIMARY KEY,
        claim_types text[] NOT NULL DEFAULT '{}',
        enabled boolean NOT NULL DEFAULT true
      )`);
    await queryRunner.query(`
      CREATE TABLE api_resources (
        name text PRIMARY KEY,
        scopes text[] NOT NULL DEFAULT '{}',
        enabled boolean NOT NULL DEFAULT true
      )`);
    await queryRunner.query(`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        algorithm text NOT NULL,
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['signing_keys', 'api_resources', 'identity_resources', 'users', 'client_secrets', 'clients']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}

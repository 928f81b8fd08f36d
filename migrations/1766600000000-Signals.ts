import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signals (docs/signals.md): OpenID Connect Back-Channel Logout registration on clients, the clients
 * each sign-in session gave ID tokens to, which clients each user's tokens named (a receiver hears
 * only of those users), the Shared Signals streams of receivers, the durable outbox every instance
 * delivers from, and the `ssf` scope receivers manage their stream with.
 */
export class Signals1766600000000 implements MigrationInterface {
  name = 'Signals1766600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE clients
        ADD COLUMN backchannel_logout_uri text,
        ADD COLUMN backchannel_logout_session_required boolean NOT NULL DEFAULT false`);
    await queryRunner.query("ALTER TABLE sign_in_sessions ADD COLUMN id_token_client_ids text[] NOT NULL DEFAULT '{}'");
    await queryRunner.query('CREATE INDEX sign_in_sessions_subject_id_idx ON sign_in_sessions (subject_id)');
    // No foreign keys: users may live in an embedding application's directory, and a token may name a metadata-document client.
    await queryRunner.query(`
      CREATE TABLE signal_recipients (
        subject_id text NOT NULL,
        client_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (subject_id, client_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE ssf_streams (
        stream_id text PRIMARY KEY,
        client_id text NOT NULL UNIQUE REFERENCES clients (client_id) ON DELETE CASCADE,
        endpoint_url text NOT NULL,
        authorization_header text,
        events_requested text[] NOT NULL DEFAULT '{}',
        events_delivered text[] NOT NULL DEFAULT '{}',
        description text,
        status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'paused', 'disabled')),
        status_reason text,
        last_verification_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE signal_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL CHECK (kind IN ('backchannel_logout', 'security_event')),
        client_id text NOT NULL,
        stream_id text REFERENCES ssf_streams (stream_id) ON DELETE CASCADE,
        endpoint_url text,
        event_type text NOT NULL,
        claims jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        expires_at timestamptz NOT NULL,
        CHECK ((kind = 'backchannel_logout') = (endpoint_url IS NOT NULL) AND (kind = 'security_event') = (stream_id IS NOT NULL))
      )`);
    await queryRunner.query('CREATE INDEX signal_outbox_next_attempt_at_idx ON signal_outbox (next_attempt_at)');
    await queryRunner.query('CREATE INDEX signal_outbox_expires_at_idx ON signal_outbox (expires_at)');
    await queryRunner.query('CREATE INDEX signal_outbox_stream_id_idx ON signal_outbox (stream_id)');
    // The scope of the stream management API (SSF 1.0 §8): a resource an operator can see, and allow to clients by migration.
    await queryRunner.query("INSERT INTO api_resources (name, scopes) VALUES ('ssf', '{ssf}') ON CONFLICT (name) DO NOTHING");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM api_resources WHERE name = 'ssf' AND scopes = '{ssf}'");
    await queryRunner.query('DROP TABLE signal_outbox');
    await queryRunner.query('DROP TABLE ssf_streams');
    await queryRunner.query('DROP TABLE signal_recipients');
    await queryRunner.query('DROP INDEX sign_in_sessions_subject_id_idx');
    await queryRunner.query('ALTER TABLE sign_in_sessions DROP COLUMN id_token_client_ids');
    await queryRunner.query('ALTER TABLE clients DROP COLUMN backchannel_logout_session_required, DROP COLUMN backchannel_logout_uri');
  }
}

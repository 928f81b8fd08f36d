import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { LogoutTokenClaims, SecurityEventClaims } from '../security-event-types';
import { SignalOutboxRepository, type ClaimedSignal, type DroppedSignal, type SignalBacklog, type SignalKind } from '../signal-outbox.repository';
import { SSF_SCOPE } from '../ssf-scope';
import { KEY_ENCRYPTION_KEYRING } from '../../../platform/key-encryption/key-encryption-key';
import type { KeyEncryptionKeyring } from '../../../platform/key-encryption/private-key-sealing';
import { managerIn } from '../../../platform/database/unit-of-work';
import { SignalOutboxEntity } from './signal-outbox.entity';
import { openAuthorizationHeader } from './stream-authorization-header';

interface ClaimedRow {
  readonly id: string;
  readonly kind: SignalKind;
  readonly client_id: string;
  readonly stream_id: string | null;
  readonly target: string;
  readonly authorization_header: string | null;
  readonly event_type: string;
  readonly claims: LogoutTokenClaims | SecurityEventClaims;
  readonly attempts: number;
  readonly created_at: Date;
}

interface DroppedRow {
  readonly kind: SignalKind;
  readonly client_id: string;
  readonly stream_id: string | null;
  readonly attempts: number;
  readonly last_error: string | null;
}

type Rows<T> = [T[], number];

/**
 * The outbox over raw SQL, each statement saying why (docs/architecture.md#persistence): the fan-out
 * of an event is one `INSERT … SELECT` joining who may hear it; a claim is one `UPDATE … RETURNING`
 * over rows locked `FOR UPDATE SKIP LOCKED`, so that instances never deliver the same row at once.
 * Additions join the caller's unit of work, so that a session's ending and its signals are one write.
 */
@Injectable()
export class TypeOrmSignalOutboxRepository extends SignalOutboxRepository {
  constructor(
    @InjectRepository(SignalOutboxEntity) private readonly outbox: Repository<SignalOutboxEntity>,
    @Inject(KEY_ENCRYPTION_KEYRING) private readonly keyring: KeyEncryptionKeyring,
  ) {
    super();
  }

  async addLogouts(clientIds: readonly string[], claims: LogoutTokenClaims, lifetimeSeconds: number): Promise<number> {
    const rows: unknown[] = await managerIn(this.outbox.manager).query(
      `INSERT INTO signal_outbox (kind, client_id, endpoint_url, event_type, claims, expires_at)
       SELECT 'backchannel_logout', c.client_id, c.backchannel_logout_uri, 'backchannel-logout', $2::jsonb, now() + make_interval(secs => $3::float8)
         FROM clients c WHERE c.client_id = ANY ($1::text[]) AND c.enabled AND c.backchannel_logout_uri IS NOT NULL
       RETURNING id`,
      [[...clientIds], claims, lifetimeSeconds],
    );
    return rows.length;
  }

  async addUserEvent(subject: string, eventType: string, claims: SecurityEventClaims, lifetimeSeconds: number): Promise<number> {
    const rows: unknown[] = await managerIn(this.outbox.manager).query(
      `INSERT INTO signal_outbox (kind, client_id, stream_id, event_type, claims, expires_at)
       SELECT 'security_event', s.client_id, s.stream_id, $2::text, $3::jsonb, now() + make_interval(secs => $4::float8)
         FROM ssf_streams s JOIN clients c ON c.client_id = s.client_id
        WHERE s.status <> 'disabled' AND $2::text = ANY (s.events_delivered) AND c.enabled AND $5::text = ANY (c.allowed_scopes)
          AND EXISTS (SELECT 1 FROM signal_recipients r WHERE r.subject_id = $1 AND r.client_id = s.client_id)
       RETURNING id`,
      [subject, eventType, claims, lifetimeSeconds, SSF_SCOPE],
    );
    return rows.length;
  }

  async addStreamEvent(streamId: string, clientId: string, eventType: string, claims: SecurityEventClaims, lifetimeSeconds: number): Promise<void> {
    await this.outbox.query(
      `INSERT INTO signal_outbox (kind, client_id, stream_id, event_type, claims, expires_at)
       VALUES ('security_event', $1, $2, $3, $4::jsonb, now() + make_interval(secs => $5::float8))`,
      [clientId, streamId, eventType, claims, lifetimeSeconds],
    );
  }

  async claimDue(limit: number, leaseMs: number): Promise<ClaimedSignal[]> {
    const rows: ClaimedRow[] = await this.outbox.query(
      `WITH claimed AS (
         UPDATE signal_outbox o SET lease_until = now() + make_interval(secs => $2::float8 / 1000), attempts = o.attempts + 1
          WHERE o.id IN (
            SELECT q.id FROM signal_outbox q LEFT JOIN ssf_streams s ON s.stream_id = q.stream_id
             WHERE q.next_attempt_at <= now() AND q.expires_at > now() AND (q.lease_until IS NULL OR q.lease_until <= now())
               AND (q.stream_id IS NULL OR s.status = 'enabled')
             ORDER BY q.next_attempt_at LIMIT $1
             FOR UPDATE OF q SKIP LOCKED)
          RETURNING o.*)
       SELECT claimed.id, claimed.kind, claimed.client_id, claimed.stream_id, coalesce(s.endpoint_url, claimed.endpoint_url) AS target,
              s.authorization_header, claimed.event_type, claimed.claims, claimed.attempts, claimed.created_at
         FROM claimed LEFT JOIN ssf_streams s ON s.stream_id = claimed.stream_id
        ORDER BY claimed.created_at`,
      [limit, leaseMs],
    );
    return rows.map((row) => {
      const authorizationHeader = row.stream_id === null ? undefined : openAuthorizationHeader(row.authorization_header, row.stream_id, this.keyring);
      return {
        id: row.id,
        kind: row.kind,
        clientId: row.client_id,
        ...(row.stream_id === null ? {} : { streamId: row.stream_id }),
        endpointUrl: row.target,
        ...(authorizationHeader === undefined ? {} : { authorizationHeader }),
        eventType: row.event_type,
        claims: row.claims,
        attempts: row.attempts,
        createdAt: row.created_at,
      };
    });
  }

  async delete(id: string): Promise<void> {
    await this.outbox.delete({ id });
  }

  async retryLater(id: string, delayMs: number, error: string): Promise<void> {
    await this.outbox.query(
      'UPDATE signal_outbox SET lease_until = NULL, next_attempt_at = now() + make_interval(secs => $2::float8 / 1000), last_error = $3 WHERE id = $1',
      [id, delayMs, error.slice(0, 500)],
    );
  }

  async deleteExpired(limit: number): Promise<DroppedSignal[]> {
    // Raw SQL: PostgreSQL has no DELETE … LIMIT; RETURNING says what was given up, for the audit log and metrics.
    const [rows] = (await this.outbox.query(
      `DELETE FROM signal_outbox WHERE id IN (
         SELECT id FROM signal_outbox WHERE expires_at <= now() AND (lease_until IS NULL OR lease_until <= now()) LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING kind, client_id, stream_id, attempts, last_error`,
      [limit],
    )) as Rows<DroppedRow>;
    return rows.map((row) => ({
      kind: row.kind,
      clientId: row.client_id,
      ...(row.stream_id === null ? {} : { streamId: row.stream_id }),
      attempts: row.attempts,
      ...(row.last_error === null ? {} : { lastError: row.last_error }),
    }));
  }

  async deleteForStream(streamId: string): Promise<number> {
    const { affected } = await this.outbox.delete({ streamId });
    return affected ?? 0;
  }

  async backlog(): Promise<SignalBacklog> {
    const rows: { stream_id: string | null; pending: string; oldest: Date }[] = await this.outbox.query(
      'SELECT stream_id, count(*) AS pending, min(created_at) AS oldest FROM signal_outbox GROUP BY stream_id',
    );
    const logout = rows.find((row) => row.stream_id === null);
    return {
      backchannelLogout: logout ? { pending: Number(logout.pending), oldest: logout.oldest } : { pending: 0 },
      streams: new Map(rows.filter((row) => row.stream_id !== null).map((row) => [row.stream_id!, { pending: Number(row.pending), oldest: row.oldest }])),
    };
  }
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { SignalKind } from '../signal-outbox.repository';

/** One delivery of a logout token or SET, until it is delivered or given up (docs/signals.md#delivery). */
@Entity('signal_outbox')
export class SignalOutboxEntity {
  /** The token's `jti`. */
  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
  id!: string;

  @Column({ type: 'text' })
  kind!: SignalKind;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Index('signal_outbox_stream_id_idx')
  @Column({ name: 'stream_id', type: 'text', nullable: true })
  streamId!: string | null;

  /** The back-channel logout URI at the time of the event; a SET goes to its stream's current `endpoint_url`. */
  @Column({ name: 'endpoint_url', type: 'text', nullable: true })
  endpointUrl!: string | null;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ type: 'jsonb' })
  claims!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('signal_outbox_next_attempt_at_idx')
  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Index('signal_outbox_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

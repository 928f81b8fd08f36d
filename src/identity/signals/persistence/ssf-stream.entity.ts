import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { StreamStatus } from '../ssf-stream';

@Entity('ssf_streams')
export class SsfStreamEntity {
  @PrimaryColumn({ name: 'stream_id', type: 'text' })
  streamId!: string;

  @Column({ name: 'client_id', type: 'text', unique: true })
  clientId!: string;

  @Column({ name: 'endpoint_url', type: 'text' })
  endpointUrl!: string;

  /** RFC 8935 §2: sent with every push; the receiver's credential, never logged or shown by operator commands. */
  @Column({ name: 'authorization_header', type: 'text', nullable: true })
  authorizationHeader!: string | null;

  @Column({ name: 'events_requested', type: 'text', array: true, default: () => "'{}'" })
  eventsRequested!: string[];

  @Column({ name: 'events_delivered', type: 'text', array: true, default: () => "'{}'" })
  eventsDelivered!: string[];

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'text', default: 'enabled' })
  status!: StreamStatus;

  @Column({ name: 'status_reason', type: 'text', nullable: true })
  statusReason!: string | null;

  @Column({ name: 'last_verification_at', type: 'timestamptz', nullable: true })
  lastVerificationAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

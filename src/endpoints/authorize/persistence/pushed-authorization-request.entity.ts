import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PushedParameters } from '../pushed-authorization-request';

@Entity('pushed_authorization_requests')
@Index('pushed_authorization_requests_client_expires_idx', ['clientId', 'expiresAt'])
@Index('pushed_authorization_requests_client_from_idx', ['clientId', 'requestedFrom', 'expiresAt'])
export class PushedAuthorizationRequestEntity {
  /** SHA-256 of the request_uri's random part, base64url. The request_uri itself is never stored. */
  @PrimaryColumn({ name: 'request_uri_hash', type: 'text' })
  requestUriHash!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'jsonb' })
  parameters!: PushedParameters;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('pushed_authorization_requests_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;

  /** The address key of an anonymous push (docs/throttling.md#pending-requests). */
  @Column({ name: 'requested_from', type: 'text', nullable: true })
  requestedFrom!: string | null;
}

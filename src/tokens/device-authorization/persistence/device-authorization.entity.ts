import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { DeviceAuthorizationStatus } from '../device-authorization';

@Entity('device_authorizations')
@Index('device_authorizations_client_expires_idx', ['clientId', 'expiresAt'])
@Index('device_authorizations_client_from_idx', ['clientId', 'requestedFrom', 'expiresAt'])
export class DeviceAuthorizationEntity {
  /** SHA-256 of the device_code, base64url. The device_code itself is never stored. */
  @PrimaryColumn({ name: 'device_code_hash', type: 'text' })
  deviceCodeHash!: string;

  @Column({ name: 'user_code', type: 'text', unique: true })
  userCode!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ name: 'acr_values', type: 'text', array: true, nullable: true })
  acrValues!: string[] | null;

  @Column({ type: 'text', default: 'pending' })
  status!: DeviceAuthorizationStatus;

  @Column({ type: 'text', nullable: true })
  subject!: string | null;

  @Column({ name: 'session_id', type: 'text', nullable: true })
  sessionId!: string | null;

  /** Seconds since the epoch; PostgreSQL's bigint arrives as a string. */
  @Column({ name: 'auth_time', type: 'bigint', nullable: true })
  authTime!: string | null;

  @Column({ name: 'authentication_methods', type: 'text', array: true, nullable: true })
  authenticationMethods!: string[] | null;

  @Column({ name: 'interval_seconds', type: 'integer' })
  intervalSeconds!: number;

  @Column({ name: 'last_polled_at', type: 'timestamptz', nullable: true })
  lastPolledAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** The address key of an anonymous request (docs/throttling.md#pending-requests). */
  @Column({ name: 'requested_from', type: 'text', nullable: true })
  requestedFrom!: string | null;

  @Index('device_authorizations_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

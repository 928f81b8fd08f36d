import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('sign_in_sessions')
export class SignInSessionEntity {
  /** SHA-256 of the session cookie's handle, base64url. The handle itself is never stored. */
  @PrimaryColumn({ name: 'handle_hash', type: 'text' })
  handleHash!: string;

  @Column({ name: 'session_id', type: 'text', unique: true })
  sessionId!: string;

  @Column({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @Column({ name: 'auth_time', type: 'timestamptz' })
  authTime!: Date;

  @Column({ name: 'authentication_methods', type: 'text', array: true, default: () => "'{}'" })
  authenticationMethods!: string[];

  /** The clients this session gave ID tokens to (docs/signals.md#back-channel-logout). */
  @Column({ name: 'id_token_client_ids', type: 'text', array: true, default: () => "'{}'" })
  idTokenClientIds!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('sign_in_sessions_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

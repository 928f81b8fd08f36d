import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('refresh_tokens')
export class RefreshTokenEntity {
  /** SHA-256 of the handle, base64url. The handle itself is never stored. */
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Index('refresh_tokens_family_id_idx')
  @Column({ name: 'family_id', type: 'uuid' })
  familyId!: string;

  @Column({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  resources!: string[];

  /** The claims the grant added to the first access token, kept by every refresh. */
  @Column({ type: 'jsonb', nullable: true })
  claims!: object | null;

  /** The `aud` the grant named for the first access token; null: the default. */
  @Column({ type: 'text', array: true, nullable: true })
  audience!: string[] | null;

  @Column({ name: 'auth_time', type: 'timestamptz' })
  authTime!: Date;

  @Column({ name: 'authentication_methods', type: 'text', array: true, default: () => "'{}'" })
  authenticationMethods!: string[];

  @Column({ name: 'session_id', type: 'text', nullable: true })
  sessionId!: string | null;

  @Column({ name: 'dpop_jkt', type: 'text', nullable: true })
  dpopJkt!: string | null;

  @Column({ name: 'access_token_jti', type: 'text', nullable: true })
  accessTokenJti!: string | null;

  @Column({ name: 'access_token_expires_at', type: 'timestamptz', nullable: true })
  accessTokenExpiresAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('refresh_tokens_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

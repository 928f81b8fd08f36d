import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('authorization_codes')
export class AuthorizationCodeEntity {
  /** SHA-256 of the code, base64url. The code itself is never stored. */
  @PrimaryColumn({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  @Column({ name: 'redirect_uri_sent', type: 'boolean', default: true })
  redirectUriSent!: boolean;

  @Column({ name: 'code_challenge', type: 'text' })
  codeChallenge!: string;

  @Column({ type: 'text', nullable: true })
  nonce!: string | null;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  resources!: string[];

  @Column({ name: 'dpop_jkt', type: 'text', nullable: true })
  dpopJkt!: string | null;

  @Column({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @Index('authorization_codes_session_id_idx')
  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ name: 'auth_time', type: 'timestamptz' })
  authTime!: Date;

  @Column({ name: 'authentication_methods', type: 'text', array: true, default: () => "'{}'" })
  authenticationMethods!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('authorization_codes_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;

  @Column({ name: 'replayed_at', type: 'timestamptz', nullable: true })
  replayedAt!: Date | null;

  @Column({ name: 'access_token_jti', type: 'text', nullable: true })
  accessTokenJti!: string | null;

  @Column({ name: 'access_token_expires_at', type: 'timestamptz', nullable: true })
  accessTokenExpiresAt!: Date | null;
}

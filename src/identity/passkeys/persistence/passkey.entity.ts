import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('passkeys')
export class PasskeyEntity {
  /** base64url. */
  @PrimaryColumn({ name: 'credential_id', type: 'text' })
  credentialId!: string;

  @Index('passkeys_subject_id_idx')
  @Column({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @Column({ name: 'user_handle', type: 'text' })
  userHandle!: string;

  @Column({ name: 'public_key', type: 'bytea' })
  publicKey!: Buffer;

  /** PostgreSQL's bigint arrives as a string. */
  @Column({ name: 'sign_count', type: 'bigint', default: 0 })
  signCount!: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  transports!: string[];

  @Column({ name: 'authenticator_attachment', type: 'text', nullable: true })
  authenticatorAttachment!: string | null;

  @Column({ name: 'backed_up', type: 'boolean', default: false })
  backedUp!: boolean;

  @Column({ type: 'text' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}

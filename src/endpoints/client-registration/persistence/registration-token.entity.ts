import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** RFC 7591 §3: an initial access token, by its SHA-256 hash. The token itself is never stored. */
@Entity('registration_tokens')
export class RegistrationTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;
}

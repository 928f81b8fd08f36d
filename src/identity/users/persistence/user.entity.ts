import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryColumn({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @Column({ type: 'text', unique: true })
  username!: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** OIDC Core §5.1 standard claims other than sub and role: name, email, email_verified, … */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  claims!: Record<string, unknown>;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  roles!: string[];

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

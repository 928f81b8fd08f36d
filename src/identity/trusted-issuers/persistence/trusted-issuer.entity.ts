import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('trusted_issuers')
export class TrustedIssuerEntity {
  @PrimaryColumn({ type: 'text' })
  issuer!: string;

  @Column({ type: 'text' })
  role!: string;

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'jsonb', nullable: true })
  jwks!: unknown;

  @Column({ name: 'jwks_uri', type: 'text', nullable: true })
  jwksUri!: string | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'subject_audience', type: 'text', nullable: true })
  subjectAudience!: string | null;

  @Column({ name: 'subject_user_claim', type: 'text', nullable: true })
  subjectUserClaim!: string | null;

  @Column({ name: 'subject_identity_scopes', type: 'text', array: true, default: () => "'{}'" })
  subjectIdentityScopes!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

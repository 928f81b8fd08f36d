import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A used client assertion's `jti` (RFC 7523 §3), kept until the assertion expires. */
@Entity('client_assertion_jtis')
export class ClientAssertionJtiEntity {
  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @PrimaryColumn({ type: 'text' })
  jti!: string;

  @Index('client_assertion_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('revoked_access_tokens')
export class RevokedAccessTokenEntity {
  @PrimaryColumn({ type: 'text' })
  jti!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', default: () => 'now()' })
  revokedAt!: Date;
}

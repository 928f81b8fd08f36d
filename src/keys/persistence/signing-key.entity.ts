import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('signing_keys')
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' })
  kid!: string;

  @Column({ type: 'text' })
  algorithm!: string;

  /** PKCS#8 PEM. */
  @Column({ name: 'private_key', type: 'text' })
  privateKey!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt!: Date | null;
}

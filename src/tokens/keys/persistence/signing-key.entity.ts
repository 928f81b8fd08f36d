import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('signing_keys')
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' })
  kid!: string;

  @Column({ type: 'text' })
  algorithm!: string;

  /** PKCS#8 PEM sealed under the key-encryption key (plaintext PEM in rows from before encryption). */
  @Column({ name: 'private_key', type: 'text' })
  privateKey!: string;

  /** SPKI PEM; null in rows from before rotation. */
  @Column({ name: 'public_key', type: 'text', nullable: true })
  publicKey!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'activates_at', type: 'timestamptz', default: () => 'now()' })
  activatesAt!: Date;

  /** When publication ends (scheduled once a newer key signs). */
  @Column({ name: 'retires_at', type: 'timestamptz', nullable: true })
  retiresAt!: Date | null;

  /** When a rotation check retired it. */
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt!: Date | null;
}

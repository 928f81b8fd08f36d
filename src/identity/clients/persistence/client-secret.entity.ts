import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ClientEntity } from './client.entity';

@Entity('client_secrets')
export class ClientSecretEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @ManyToOne(() => ClientEntity, (client) => client.secrets, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity;

  /** SHA-256 of the secret, base64. The secret itself is never stored. */
  @Column({ name: 'value_hash', type: 'text' })
  valueHash!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ClientEntity } from './client.entity';

@Entity('client_workload_identities')
export class ClientWorkloadIdentityEntity {
  @PrimaryColumn({ type: 'text' })
  issuer!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @ManyToOne(() => ClientEntity, (client) => client.workloadIdentities, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id' })
  client?: Relation<ClientEntity>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

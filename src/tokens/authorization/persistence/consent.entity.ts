import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity('consents')
export class ConsentEntity {
  @PrimaryColumn({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

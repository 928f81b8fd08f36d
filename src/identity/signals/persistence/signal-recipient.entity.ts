import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A client a user's token named (`client_id` or `aud`): Shared Signals receivers hear only of these users (docs/signals.md#privacy-who-hears-of-whom). */
@Entity('signal_recipients')
export class SignalRecipientEntity {
  @PrimaryColumn({ name: 'subject_id', type: 'text' })
  subjectId!: string;

  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

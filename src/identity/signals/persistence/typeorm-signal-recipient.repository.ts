import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SignalRecipientRepository } from '../token-recipients';
import { SignalRecipientEntity } from './signal-recipient.entity';

@Injectable()
export class TypeOrmSignalRecipientRepository extends SignalRecipientRepository {
  constructor(@InjectRepository(SignalRecipientEntity) private readonly recipients: Repository<SignalRecipientEntity>) {
    super();
  }

  async add(subject: string, clientIds: readonly string[]): Promise<void> {
    // Raw SQL: one INSERT of every pair with unnest(), ON CONFLICT DO NOTHING for those recorded before (by any instance).
    await this.recipients.query('INSERT INTO signal_recipients (subject_id, client_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [
      subject,
      [...clientIds],
    ]);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ConsentRepository } from '../consent.repository';
import { ConsentEntity } from './consent.entity';

@Injectable()
export class TypeOrmConsentRepository extends ConsentRepository {
  constructor(@InjectRepository(ConsentEntity) private readonly consents: Repository<ConsentEntity>) {
    super();
  }

  async findScopes(subject: string, clientId: string): Promise<readonly string[]> {
    // Raw SQL on the authorization endpoint's hot path, as the code's insert.
    const [row] = (await this.consents.query('SELECT scopes FROM consents WHERE subject_id = $1 AND client_id = $2', [subject, clientId])) as {
      scopes: string[];
    }[];
    return row?.scopes ?? [];
  }

  async allow(subject: string, clientId: string, scopes: readonly string[]): Promise<void> {
    // Raw SQL: INSERT … ON CONFLICT merges the scopes into a remembered consent in one statement, without a lost update.
    await this.consents.query(
      `INSERT INTO consents (subject_id, client_id, scopes) VALUES ($1, $2, $3)
       ON CONFLICT (subject_id, client_id) DO UPDATE
         SET scopes = ARRAY(SELECT DISTINCT unnest(consents.scopes || EXCLUDED.scopes)), updated_at = now()`,
      [subject, clientId, scopes],
    );
  }
}

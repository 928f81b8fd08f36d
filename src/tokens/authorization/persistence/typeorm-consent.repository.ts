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
    const entity = await this.consents.findOne({ select: { scopes: true }, where: { subjectId: subject, clientId } });
    return entity?.scopes ?? [];
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

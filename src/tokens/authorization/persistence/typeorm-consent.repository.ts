import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConsentRepository } from '../consent.repository';

@Injectable()
export class TypeOrmConsentRepository extends ConsentRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async findScopes(subject: string, clientId: string): Promise<readonly string[]> {
    const rows: { scopes: string[] }[] = await this.dataSource.query('SELECT scopes FROM consents WHERE subject_id = $1 AND client_id = $2', [
      subject,
      clientId,
    ]);
    return rows[0]?.scopes ?? [];
  }

  async allow(subject: string, clientId: string, scopes: readonly string[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO consents (subject_id, client_id, scopes) VALUES ($1, $2, $3)
       ON CONFLICT (subject_id, client_id) DO UPDATE
         SET scopes = ARRAY(SELECT DISTINCT unnest(consents.scopes || EXCLUDED.scopes)), updated_at = now()`,
      [subject, clientId, scopes],
    );
  }
}

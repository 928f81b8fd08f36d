import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PartnerAuthorizationServer } from '../partner-authorization-server';
import { PartnerAuthorizationServerRepository } from '../partner-authorization-server.repository';

interface PartnerRow {
  readonly issuer: string;
  readonly resources: string[];
  readonly client_ids: Record<string, string> | null;
}

/** The tables of migration CrossDomainGrants1766710000000. */
@Injectable()
export class PostgresPartnerAuthorizationServerRepository extends PartnerAuthorizationServerRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {
    super();
  }

  async findByIssuer(issuer: string): Promise<PartnerAuthorizationServer | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT p.issuer, p.resources,
              (SELECT jsonb_object_agg(c.client_id, c.partner_client_id) FROM partner_authorization_server_clients c WHERE c.issuer = p.issuer) AS client_ids
         FROM partner_authorization_servers p WHERE p.issuer = $1 AND p.enabled`,
      [issuer],
    )) as PartnerRow[];
    return row ? { issuer: row.issuer, resources: row.resources, clientIds: row.client_ids ?? {} } : undefined;
  }

  async knowsClient(clientId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM partner_authorization_server_clients c JOIN partner_authorization_servers p USING (issuer)
        WHERE c.client_id = $1 AND p.enabled LIMIT 1`,
      [clientId],
    )) as unknown[];
    return rows.length > 0;
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RegisteredClientRecord } from '../client-registration';
import { RegisteredClientRepository, type StoredRegistration } from '../registered-client.repository';

@Injectable()
export class TypeOrmRegisteredClientRepository extends RegisteredClientRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async create(record: RegisteredClientRecord, hashes: { readonly secret?: string; readonly registrationAccessToken: string }): Promise<Date> {
    return this.dataSource.transaction(async (manager) => {
      const rows: { created_at: Date }[] = await manager.query(
        `INSERT INTO clients (client_id, client_name, allowed_grant_types, allowed_scopes, public_client, redirect_uris, post_logout_redirect_uris,
           require_consent, jwks, self_registered, registration, registration_access_token_hash, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, 'dynamic', $9, $10, now()) RETURNING created_at`,
        [...settings(record), hashes.registrationAccessToken],
      );
      if (hashes.secret !== undefined) {
        await manager.query(`INSERT INTO client_secrets (client_id, value_hash, description) VALUES ($1, $2, 'dynamic registration')`, [
          record.clientId,
          hashes.secret,
        ]);
      }
      return rows[0].created_at;
    });
  }

  async find(clientId: string): Promise<StoredRegistration | undefined> {
    const rows: { registration: Record<string, unknown>; registration_access_token_hash: string; created_at: Date }[] = await this.dataSource.query(
      `SELECT registration, registration_access_token_hash, created_at FROM clients WHERE client_id = $1 AND self_registered = 'dynamic'`,
      [clientId],
    );
    const [row] = rows;
    return row && { clientId, registration: row.registration, registrationAccessTokenHash: row.registration_access_token_hash, issuedAt: row.created_at };
  }

  async update(record: RegisteredClientRecord): Promise<void> {
    await this.dataSource.query(
      `UPDATE clients SET client_name = $2, allowed_grant_types = $3, allowed_scopes = $4, public_client = $5, redirect_uris = $6,
         post_logout_redirect_uris = $7, jwks = $8, registration = $9, last_used_at = now()
       WHERE client_id = $1 AND self_registered = 'dynamic'`,
      settings(record),
    );
  }

  async delete(clientId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM clients WHERE client_id = $1 AND self_registered = 'dynamic'`, [clientId]);
  }

  async purgeUnused(before: Date): Promise<number> {
    const [, affected] = (await this.dataSource.query('DELETE FROM clients WHERE self_registered IS NOT NULL AND coalesce(last_used_at, created_at) < $1', [
      before,
    ])) as [unknown, number];
    return affected;
  }
}

function settings(record: RegisteredClientRecord): unknown[] {
  return [
    record.clientId,
    record.clientName ?? null,
    record.grantTypes,
    record.scopes,
    record.public,
    record.redirectUris,
    record.postLogoutRedirectUris,
    record.jwks === undefined ? null : JSON.stringify(record.jwks),
    JSON.stringify(record.registration),
  ];
}

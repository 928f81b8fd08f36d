import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PushedParameters } from '../pushed-authorization-request';
import { PushedAuthorizationRequestRepository, type StoredPushedRequest } from '../pushed-authorization-request.repository';

type Rows<T> = [T[], number];

@Injectable()
export class TypeOrmPushedAuthorizationRequestRepository extends PushedAuthorizationRequestRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(request: StoredPushedRequest, limit: number, now: Date): Promise<boolean> {
    if (await this.insertBelow(request, limit)) return true;
    // Full: the client's expired rows (not purged yet) make room, if any.
    await this.dataSource.query('DELETE FROM pushed_authorization_requests WHERE client_id = $1 AND expires_at <= $2', [request.clientId, now]);
    return this.insertBelow(request, limit);
  }

  /**
   * Every row of the client counts, expired or not, so the table holds at most `limit` per client.
   * Counting at most `limit` rows keeps the check cheap; concurrent pushes may pass it together, so
   * the bound may be passed by a few rows, never without limit.
   */
  private async insertBelow(request: StoredPushedRequest, limit: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO pushed_authorization_requests (request_uri_hash, client_id, parameters, expires_at)
       SELECT $1, $2, $3, $4
       WHERE (SELECT count(*) FROM (SELECT 1 FROM pushed_authorization_requests WHERE client_id = $2 LIMIT $5) AS held) < $5
       RETURNING request_uri_hash`,
      [request.requestUriHash, request.clientId, JSON.stringify(request.parameters), request.expiresAt, limit],
    );
    return rows.length === 1;
  }

  async claim(requestUriHash: string, clientId: string, now: Date, until: Date): Promise<PushedParameters | undefined> {
    const [rows] = (await this.dataSource.query(
      `UPDATE pushed_authorization_requests SET claimed_at = $3, expires_at = $4
       WHERE request_uri_hash = $1 AND client_id = $2 AND claimed_at IS NULL AND expires_at > $3
       RETURNING parameters`,
      [requestUriHash, clientId, now, until],
    )) as Rows<{ parameters: PushedParameters }>;
    return rows[0]?.parameters;
  }

  async findClaimed(requestUriHash: string, clientId: string, now: Date): Promise<PushedParameters | undefined> {
    const rows: { parameters: PushedParameters }[] = await this.dataSource.query(
      `SELECT parameters FROM pushed_authorization_requests
       WHERE request_uri_hash = $1 AND client_id = $2 AND claimed_at IS NOT NULL AND expires_at > $3`,
      [requestUriHash, clientId, now],
    );
    return rows[0]?.parameters;
  }

  async replaceParameters(requestUriHash: string, parameters: PushedParameters): Promise<void> {
    await this.dataSource.query('UPDATE pushed_authorization_requests SET parameters = $2 WHERE request_uri_hash = $1', [
      requestUriHash,
      JSON.stringify(parameters),
    ]);
  }

  async consume(requestUriHash: string, clientId: string, now: Date): Promise<boolean> {
    // One conditional DELETE: of concurrent uses, exactly one sees the row.
    const [rows] = (await this.dataSource.query(
      `DELETE FROM pushed_authorization_requests
       WHERE request_uri_hash = $1 AND client_id = $2 AND claimed_at IS NOT NULL AND expires_at > $3
       RETURNING request_uri_hash`,
      [requestUriHash, clientId, now],
    )) as Rows<unknown>;
    return rows.length === 1;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const [, affected] = (await this.dataSource.query('DELETE FROM pushed_authorization_requests WHERE expires_at < $1', [cutoff])) as [unknown, number];
    return affected ?? 0;
  }
}

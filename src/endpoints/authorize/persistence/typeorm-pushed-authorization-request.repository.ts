import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, LessThanOrEqual, MoreThan, Not, IsNull, Repository } from 'typeorm';
import type { PushedParameters } from '../pushed-authorization-request';
import type { PendingBound, PendingLimits } from '../../../platform/rate-limit/pending-requests';
import { PushedAuthorizationRequestRepository, type StoredPushedRequest } from '../pushed-authorization-request.repository';
import { PushedAuthorizationRequestEntity } from './pushed-authorization-request.entity';

type Rows<T> = [T[], number];

@Injectable()
export class TypeOrmPushedAuthorizationRequestRepository extends PushedAuthorizationRequestRepository {
  constructor(@InjectRepository(PushedAuthorizationRequestEntity) private readonly requests: Repository<PushedAuthorizationRequestEntity>) {
    super();
  }

  async add(request: StoredPushedRequest, limits: PendingLimits, now: Date): Promise<PendingBound | undefined> {
    if (await this.insertBelow(request, limits)) return undefined;
    // Full: the client's expired rows (not purged yet) make room, if any.
    await this.requests.delete({ clientId: request.clientId, expiresAt: LessThanOrEqual(now) });
    if (await this.insertBelow(request, limits)) return undefined;
    return (await this.held(request, limits.perAddress)) ? 'address' : 'client';
  }

  /**
   * Every row counts, expired or not, so the table holds at most `perClient` per client and
   * `perAddress` per (client, address). Counting at most the bound's rows keeps the check cheap;
   * concurrent pushes may pass it together, so a bound may be passed by a few rows, never without limit.
   */
  private async insertBelow(request: StoredPushedRequest, { perClient, perAddress }: PendingLimits): Promise<boolean> {
    // Raw SQL: the bounded counts and the INSERT are one statement (INSERT … SELECT … WHERE … RETURNING).
    const rows: unknown[] = await this.requests.query(
      `INSERT INTO pushed_authorization_requests (request_uri_hash, client_id, parameters, expires_at, requested_from)
       SELECT $1, $2, $3, $4, $6
       WHERE (SELECT count(*) FROM (SELECT 1 FROM pushed_authorization_requests WHERE client_id = $2 LIMIT $5) AS held) < $5
         AND ($6::text IS NULL OR (SELECT count(*) FROM (SELECT 1 FROM pushed_authorization_requests WHERE client_id = $2 AND requested_from = $6 LIMIT $7) AS mine) < $7)
       RETURNING request_uri_hash`,
      [request.requestUriHash, request.clientId, JSON.stringify(request.parameters), request.expiresAt, perClient, request.requestedFrom ?? null, perAddress],
    );
    return rows.length === 1;
  }

  /** Whether the request's address holds its bound (the refusal's reason). */
  private async held({ clientId, requestedFrom }: StoredPushedRequest, perAddress: number): Promise<boolean> {
    return requestedFrom !== undefined && (await this.requests.count({ where: { clientId, requestedFrom }, take: perAddress })) >= perAddress;
  }

  async claim(requestUriHash: string, clientId: string, now: Date, until: Date): Promise<PushedParameters | undefined> {
    // Raw SQL: one conditional UPDATE … RETURNING; of concurrent first uses, exactly one gets the parameters.
    const [rows] = (await this.requests.query(
      `UPDATE pushed_authorization_requests SET claimed_at = $3, expires_at = $4
       WHERE request_uri_hash = $1 AND client_id = $2 AND claimed_at IS NULL AND expires_at > $3
       RETURNING parameters`,
      [requestUriHash, clientId, now, until],
    )) as Rows<{ parameters: PushedParameters }>;
    return rows[0]?.parameters;
  }

  async findClaimed(requestUriHash: string, clientId: string, now: Date): Promise<PushedParameters | undefined> {
    const entity = await this.requests.findOne({
      select: { parameters: true },
      where: { requestUriHash, clientId, claimedAt: Not(IsNull()), expiresAt: MoreThan(now) },
    });
    return entity?.parameters;
  }

  async replaceParameters(requestUriHash: string, parameters: PushedParameters): Promise<void> {
    await this.requests.update({ requestUriHash }, { parameters });
  }

  async consume(requestUriHash: string, clientId: string, now: Date): Promise<boolean> {
    // Raw SQL: one conditional DELETE … RETURNING; of concurrent uses, exactly one sees the row.
    const [rows] = (await this.requests.query(
      `DELETE FROM pushed_authorization_requests
       WHERE request_uri_hash = $1 AND client_id = $2 AND claimed_at IS NOT NULL AND expires_at > $3
       RETURNING request_uri_hash`,
      [requestUriHash, clientId, now],
    )) as Rows<unknown>;
    return rows.length === 1;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { affected } = await this.requests.delete({ expiresAt: LessThan(cutoff) });
    return affected ?? 0;
  }
}

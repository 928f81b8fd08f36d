import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository, type FindOptionsWhere } from 'typeorm';
import type { PendingBound, PendingLimits } from '../../../platform/rate-limit/pending-requests';
import type { DeviceApproval, DeviceAuthorization } from '../device-authorization';
import { DeviceAuthorizationRepository, type NewDeviceAuthorization } from '../device-authorization.repository';
import { DeviceAuthorizationEntity } from './device-authorization.entity';

type Rows<T> = [T[], number];

@Injectable()
export class TypeOrmDeviceAuthorizationRepository extends DeviceAuthorizationRepository {
  constructor(@InjectRepository(DeviceAuthorizationEntity) private readonly authorizations: Repository<DeviceAuthorizationEntity>) {
    super();
  }

  async fullFor(clientId: string, requestedFrom: string | undefined, { perClient, perAddress }: PendingLimits, now: Date): Promise<PendingBound | undefined> {
    // Counting at most the bound's rows keeps the check cheap.
    const pending = (where: FindOptionsWhere<DeviceAuthorizationEntity>, bound: number) =>
      this.authorizations.count({ where: { ...where, clientId, expiresAt: MoreThan(now) }, take: bound }).then((count) => count >= bound);
    if (requestedFrom !== undefined && (await pending({ requestedFrom }, perAddress))) return 'address';
    return (await pending({}, perClient)) ? 'client' : undefined;
  }

  async add(request: NewDeviceAuthorization): Promise<boolean> {
    // Raw SQL: INSERT … ON CONFLICT DO NOTHING says whether the user code was free in one statement, without a failed transaction.
    const rows: unknown[] = await this.authorizations.query(
      `INSERT INTO device_authorizations (device_code_hash, user_code, client_id, scopes, acr_values, interval_seconds, expires_at, requested_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_code) DO NOTHING RETURNING device_code_hash`,
      [
        request.deviceCodeHash,
        request.userCode,
        request.clientId,
        request.scopes,
        request.acrValues ?? null,
        request.intervalSeconds,
        request.expiresAt,
        request.requestedFrom ?? null,
      ],
    );
    return rows.length === 1;
  }

  async findByDeviceCode(deviceCodeHash: string, clientId: string): Promise<DeviceAuthorization | undefined> {
    const entity = await this.authorizations.findOneBy({ deviceCodeHash, clientId });
    return entity ? toDeviceAuthorization(entity) : undefined;
  }

  async findPendingByUserCode(userCode: string, now: Date): Promise<DeviceAuthorization | undefined> {
    const entity = await this.authorizations.findOneBy({ userCode, status: 'pending', expiresAt: MoreThan(now) });
    return entity ? toDeviceAuthorization(entity) : undefined;
  }

  async answer(userCode: string, approval: DeviceApproval | undefined, now: Date): Promise<boolean> {
    // Raw SQL: one conditional UPDATE … RETURNING; of concurrent answers, exactly one is recorded.
    const [rows] = (await this.authorizations.query(
      `UPDATE device_authorizations
       SET status = $3, subject = $4, session_id = $5, auth_time = $6, authentication_methods = $7
       WHERE user_code = $1 AND status = 'pending' AND expires_at > $2
       RETURNING user_code`,
      [
        userCode,
        now,
        approval ? 'approved' : 'denied',
        approval?.subject ?? null,
        approval?.sessionId ?? null,
        approval?.authTime ?? null,
        approval ? [...approval.authenticationMethods] : null,
      ],
    )) as Rows<unknown>;
    return rows.length === 1;
  }

  async recordPoll(deviceCodeHash: string, now: Date, intervalSeconds: number): Promise<void> {
    await this.authorizations.update({ deviceCodeHash }, { lastPolledAt: now, intervalSeconds });
  }

  async redeem(deviceCodeHash: string, now: Date): Promise<boolean> {
    // Raw SQL: one conditional UPDATE … RETURNING; of concurrent polls, exactly one sees the approval.
    const [rows] = (await this.authorizations.query(
      `UPDATE device_authorizations SET status = 'redeemed', last_polled_at = $2
       WHERE device_code_hash = $1 AND status = 'approved' AND expires_at > $2
       RETURNING device_code_hash`,
      [deviceCodeHash, now],
    )) as Rows<unknown>;
    return rows.length === 1;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { affected } = await this.authorizations.delete({ expiresAt: LessThan(cutoff) });
    return affected ?? 0;
  }
}

function toDeviceAuthorization(entity: DeviceAuthorizationEntity): DeviceAuthorization {
  const approval: DeviceApproval | undefined =
    entity.subject === null || entity.sessionId === null
      ? undefined
      : {
          subject: entity.subject,
          sessionId: entity.sessionId,
          authTime: Number(entity.authTime ?? 0),
          authenticationMethods: entity.authenticationMethods ?? [],
        };
  return {
    clientId: entity.clientId,
    userCode: entity.userCode,
    scopes: entity.scopes,
    ...(entity.acrValues ? { acrValues: entity.acrValues } : {}),
    status: entity.status,
    approval,
    intervalSeconds: entity.intervalSeconds,
    lastPolledAt: entity.lastPolledAt ?? undefined,
    expiresAt: entity.expiresAt,
  };
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DeviceApproval, DeviceAuthorization, DeviceAuthorizationStatus } from '../device-authorization';
import { DeviceAuthorizationRepository, type NewDeviceAuthorization } from '../device-authorization.repository';

type Rows<T> = [T[], number];

interface DeviceAuthorizationRow {
  client_id: string;
  user_code: string;
  scopes: string[];
  status: DeviceAuthorizationStatus;
  subject: string | null;
  session_id: string | null;
  auth_time: string | null;
  authentication_methods: string[] | null;
  interval_seconds: number;
  last_polled_at: Date | null;
  expires_at: Date;
}

const COLUMNS = 'client_id, user_code, scopes, status, subject, session_id, auth_time, authentication_methods, interval_seconds, last_polled_at, expires_at';

@Injectable()
export class TypeOrmDeviceAuthorizationRepository extends DeviceAuthorizationRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(request: NewDeviceAuthorization): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO device_authorizations (device_code_hash, user_code, client_id, scopes, interval_seconds, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_code) DO NOTHING RETURNING device_code_hash`,
      [request.deviceCodeHash, request.userCode, request.clientId, request.scopes, request.intervalSeconds, request.expiresAt],
    );
    return rows.length === 1;
  }

  async findByDeviceCode(deviceCodeHash: string, clientId: string): Promise<DeviceAuthorization | undefined> {
    const rows: DeviceAuthorizationRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM device_authorizations WHERE device_code_hash = $1 AND client_id = $2`,
      [deviceCodeHash, clientId],
    );
    return rows[0] && toDeviceAuthorization(rows[0]);
  }

  async findPendingByUserCode(userCode: string, now: Date): Promise<DeviceAuthorization | undefined> {
    const rows: DeviceAuthorizationRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM device_authorizations WHERE user_code = $1 AND status = 'pending' AND expires_at > $2`,
      [userCode, now],
    );
    return rows[0] && toDeviceAuthorization(rows[0]);
  }

  async answer(userCode: string, approval: DeviceApproval | undefined, now: Date): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
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
    await this.dataSource.query('UPDATE device_authorizations SET last_polled_at = $2, interval_seconds = $3 WHERE device_code_hash = $1', [
      deviceCodeHash,
      now,
      intervalSeconds,
    ]);
  }

  async redeem(deviceCodeHash: string, now: Date): Promise<boolean> {
    // One conditional UPDATE: of concurrent polls, exactly one sees the approval.
    const [rows] = (await this.dataSource.query(
      `UPDATE device_authorizations SET status = 'redeemed', last_polled_at = $2
       WHERE device_code_hash = $1 AND status = 'approved' AND expires_at > $2
       RETURNING device_code_hash`,
      [deviceCodeHash, now],
    )) as Rows<unknown>;
    return rows.length === 1;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const [, affected] = (await this.dataSource.query('DELETE FROM device_authorizations WHERE expires_at < $1', [cutoff])) as [unknown, number];
    return affected ?? 0;
  }
}

function toDeviceAuthorization(row: DeviceAuthorizationRow): DeviceAuthorization {
  const approval: DeviceApproval | undefined =
    row.subject === null || row.session_id === null
      ? undefined
      : {
          subject: row.subject,
          sessionId: row.session_id,
          authTime: Number(row.auth_time ?? 0),
          authenticationMethods: row.authentication_methods ?? [],
        };
  return {
    clientId: row.client_id,
    userCode: row.user_code,
    scopes: row.scopes,
    status: row.status,
    approval,
    intervalSeconds: row.interval_seconds,
    lastPolledAt: row.last_polled_at ?? undefined,
    expiresAt: row.expires_at,
  };
}

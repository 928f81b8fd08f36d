import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AssertionReplayGuard } from '../assertion-replay.guard';

const PURGE_INTERVAL_MS = 10 * 60_000;

/** `jti`s in PostgreSQL (`client_assertion_jtis`); expired rows are purged every ten minutes by whichever instance records one. */
@Injectable()
export class PostgresAssertionReplayGuard extends AssertionReplayGuard {
  private readonly logger = new Logger(PostgresAssertionReplayGuard.name);
  private lastPurge = 0;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    // A row whose assertion has expired no longer counts: it is taken over instead of refusing.
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO client_assertion_jtis (client_id, jti, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (client_id, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE client_assertion_jtis.expires_at < now()
       RETURNING 1`,
      [clientId, jti, expiresAt],
    );
    this.purgeNowAndThen();
    return rows.length === 1;
  }

  private purgeNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    this.dataSource
      .query(`DELETE FROM client_assertion_jtis WHERE expires_at < now() - interval '1 minute'`)
      .catch((error: unknown) => this.logger.warn(`Purging used assertion ids failed: ${(error as Error).message}`));
  }
}

import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../../platform/scheduling/periodic-task';
import { AssertionReplayGuard } from '../assertion-replay.guard';

const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * `jti`s in PostgreSQL (`client_assertion_jtis`), each until its assertion expires: the record of
 * every used one, with or without Redis in front (docs/client-authentication.md). Every instance
 * purges expired rows every ten minutes.
 */
@Injectable()
export class PostgresAssertionReplayGuard extends AssertionReplayGuard implements OnModuleInit, OnModuleDestroy {
  private readonly purges = new PeriodicTask({
    name: 'Purging used client assertion ids',
    periodMs: PURGE_INTERVAL_MS,
    run: () => this.purge(),
    log: new Logger(PostgresAssertionReplayGuard.name),
  });

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  onModuleInit(): void {
    this.purges.start();
  }

  onModuleDestroy(): void {
    this.purges.stop();
  }

  async firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    // A row whose assertion has expired no longer counts: it is taken over instead of refusing.
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO client_assertion_jtis (client_id, jti, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (client_id, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE client_assertion_jtis.expires_at < now()
       RETURNING 1`,
      [clientId, jti, expiresAt],
    );
    return rows.length === 1;
  }

  /** Deletes the rows of assertions expired over a minute ago (clock skew); returns how many. */
  async purge(): Promise<number> {
    const [{ count }] = (await this.dataSource.query(
      `WITH purged AS (DELETE FROM client_assertion_jtis WHERE expires_at < now() - interval '1 minute' RETURNING 1)
       SELECT count(*)::int AS count FROM purged`,
    )) as [{ count: number }];
    return count;
  }
}

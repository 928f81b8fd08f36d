import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Raw, Repository } from 'typeorm';
import { PeriodicTask } from '../../../platform/scheduling/periodic-task';
import { AssertionReplayGuard } from '../assertion-replay.guard';
import { ClientAssertionJtiEntity } from './client-assertion-jti.entity';

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

  constructor(@InjectRepository(ClientAssertionJtiEntity) private readonly jtis: Repository<ClientAssertionJtiEntity>) {
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
    // Raw SQL: INSERT … ON CONFLICT … DO UPDATE … WHERE claims the jti in one statement, race-free.
    const rows: unknown[] = await this.jtis.query(
      `INSERT INTO client_assertion_jtis (client_id, jti, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (client_id, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE client_assertion_jtis.expires_at < now()
       RETURNING 1`,
      [clientId, jti, expiresAt],
    );
    return rows.length === 1;
  }

  /** Deletes the rows of assertions expired over a minute ago (clock skew); returns how many. */
  async purge(): Promise<number> {
    const { affected } = await this.jtis.delete({ expiresAt: Raw((column) => `${column} < now() - interval '1 minute'`) });
    return affected ?? 0;
  }
}

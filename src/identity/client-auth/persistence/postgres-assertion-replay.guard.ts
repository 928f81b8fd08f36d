import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Raw, Repository } from 'typeorm';
import { TickBatcher } from '../../../platform/batching/tick-batcher';
import { PeriodicTask } from '../../../platform/scheduling/periodic-task';
import { AssertionReplayGuard } from '../assertion-replay.guard';
import { ClientAssertionJtiEntity } from './client-assertion-jti.entity';

const PURGE_INTERVAL_MS = 10 * 60_000;

interface Use {
  readonly clientId: string;
  readonly jti: string;
  readonly expiresAt: Date;
}

// A row whose assertion has expired no longer counts: it is taken over instead of refusing.
// INSERT … ON CONFLICT … DO UPDATE … WHERE claims each jti in one statement, race-free across instances.
const CLAIM = `INSERT INTO client_assertion_jtis (client_id, jti, expires_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])
  ON CONFLICT (client_id, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE client_assertion_jtis.expires_at < now()
  RETURNING client_id, jti`;

/**
 * `jti`s in PostgreSQL (`client_assertion_jtis`), each until its assertion expires: the record of
 * every used one, with or without Redis in front (docs/client-authentication.md). The uses of one
 * turn of the event loop (a DPoP proof on every token request, under load: many) are claimed in one
 * statement. Every instance purges expired rows every ten minutes.
 */
@Injectable()
export class PostgresAssertionReplayGuard extends AssertionReplayGuard implements OnModuleInit, OnModuleDestroy {
  private readonly purges = new PeriodicTask({
    name: 'Purging used client assertion ids',
    periodMs: PURGE_INTERVAL_MS,
    run: () => this.purge(),
    log: new Logger(PostgresAssertionReplayGuard.name),
  });

  private readonly uses = new TickBatcher<Use, boolean>((uses) => this.claim(uses));

  constructor(@InjectRepository(ClientAssertionJtiEntity) private readonly jtis: Repository<ClientAssertionJtiEntity>) {
    super();
  }

  onModuleInit(): void {
    this.purges.start();
  }

  onModuleDestroy(): void {
    this.purges.stop();
  }

  firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    return this.uses.add({ clientId, jti, expiresAt });
  }

  /** Claims a batch of uses; a (client, jti) twice in one batch is claimed by its first use only. */
  private async claim(uses: readonly Use[]): Promise<boolean[]> {
    const keyOf = (use: { clientId?: string; client_id?: string; jti: string }) => `${use.clientId ?? use.client_id}\0${use.jti}`;
    const unique = [...new Map(uses.map((use) => [keyOf(use), use])).values()];
    const rows: { client_id: string; jti: string }[] = await this.jtis.query(CLAIM, [
      unique.map((use) => use.clientId),
      unique.map((use) => use.jti),
      unique.map((use) => use.expiresAt),
    ]);
    const claimed = new Set(rows.map(keyOf));
    // Taken from the set by the first use of each key: a second use in the batch finds it gone.
    return uses.map((use) => claimed.delete(keyOf(use)));
  }

  /** Deletes the rows of assertions expired over a minute ago (clock skew); returns how many. */
  async purge(): Promise<number> {
    const { affected } = await this.jtis.delete({ expiresAt: Raw((column) => `${column} < now() - interval '1 minute'`) });
    return affected ?? 0;
  }
}

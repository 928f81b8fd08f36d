import { Controller, Get, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { MigrationsHealthIndicator } from '../database/migrations.health';
import { SigningKeyStore } from '../keys/signing-key.store';
import { ShutdownState } from './shutdown-state';

/** Liveness (the process serves) and readiness (database, migrations, signing key) probes. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly checks: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly migrations: MigrationsHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly keys: SigningKeyStore,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const result = await this.checks
      .check([
        () => this.database.pingCheck('database').withTimeout(1500),
        () => this.migrations.check('migrations'),
        () => {
          const serving = this.indicators.check('serving');
          return this.shutdown.draining ? serving.down('shutting down') : serving.up();
        },
        () => {
          const signingKey = this.indicators.check('signing_key');
          return this.keys.activeSigningKey ? signingKey.up() : signingKey.down('no signing key loaded');
        },
      ])
      .then((ok) => ({ status: 200, body: ok as unknown }))
      // Terminus reports an unhealthy check as a 503 exception carrying the check results.
      .catch((error: { getResponse?: () => unknown }) => ({ status: 503, body: error.getResponse?.() ?? { status: 'error' } }));
    void reply.status(result.status).header('Cache-Control', 'no-store').send(result.body);
  }
}

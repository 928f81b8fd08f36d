import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator, type HealthCheckResult } from '@nestjs/terminus';
import { MigrationsHealthIndicator } from '../../platform/database/migrations.health';
import { SigningKeyStore } from '../../tokens/keys/signing-key.store';
import { ShutdownState } from './shutdown-state';

/**
 * Liveness (the process serves) and readiness (database, migrations, signing key) probes. Terminus
 * answers an unhealthy check with 503 and the check results; Nest renders it (no OAuth format here).
 */
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
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.checks.check([
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
    ]);
  }
}

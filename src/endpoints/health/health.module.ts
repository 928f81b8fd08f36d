import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { MigrationsHealthIndicator } from '../../platform/database/migrations.health';
import { KeysModule } from '../../tokens/keys/keys.module';
import { HealthController } from './health.controller';
import { ShutdownState } from './shutdown-state';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), KeysModule],
  controllers: [HealthController],
  providers: [MigrationsHealthIndicator, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}

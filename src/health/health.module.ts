import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { MigrationsHealthIndicator } from '../database/migrations.health';
import { KeysModule } from '../keys/keys.module';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), KeysModule],
  controllers: [HealthController],
  providers: [MigrationsHealthIndicator],
})
export class HealthModule {}

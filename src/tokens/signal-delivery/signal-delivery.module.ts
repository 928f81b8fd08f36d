import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AuditModule } from '../../platform/audit/audit.module';
import { MetricsModule } from '../../platform/metrics/metrics.module';
import { SignalsModule } from '../../identity/signals/signals.module';
import { KeysModule } from '../keys/keys.module';
import { SignalDeliverer } from './signal.deliverer';
import { SignalMetrics } from './signal-metrics';
import { SignalTokenSigner } from './signal-token.signer';
import { SignalTransport } from './signal.transport';

/** Delivers logout tokens and security event tokens from the outbox (docs/signals.md#delivery); part of the service, not of operator commands. */
@Module({
  imports: [JwtModule.register({}), KeysModule, SignalsModule, MetricsModule, AuditModule],
  providers: [SignalTokenSigner, SignalTransport, SignalMetrics, SignalDeliverer],
  exports: [SignalDeliverer, SignalTokenSigner],
})
export class SignalDeliveryModule {}

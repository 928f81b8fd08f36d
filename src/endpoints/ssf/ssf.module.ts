import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit/audit.module';
import { ClientsModule } from '../../identity/clients/clients.module';
import { SignalsModule } from '../../identity/signals/signals.module';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { DpopModule } from '../../tokens/dpop/dpop.module';
import { SignalDeliveryModule } from '../../tokens/signal-delivery/signal-delivery.module';
import { BearerTokenGuard } from '../userinfo/bearer-token.guard';
import { ResourceTokenAuthenticator } from '../userinfo/resource-token.authenticator';
import { SsfConfigurationController } from './ssf-configuration.controller';
import { SsfStreamService } from './ssf-stream.service';
import { SsfStreamsController } from './ssf-streams.controller';

/**
 * Signals (docs/signals.md): the SSF 1.0 transmitter's configuration document and stream management
 * API, and the delivery of logout tokens and SETs from the outbox.
 */
@Module({
  imports: [AccessTokenModule, DpopModule, ClientsModule, SignalsModule, SignalDeliveryModule, AuditModule],
  controllers: [SsfConfigurationController, SsfStreamsController],
  providers: [SsfStreamService, BearerTokenGuard, ResourceTokenAuthenticator],
})
export class SsfModule {}

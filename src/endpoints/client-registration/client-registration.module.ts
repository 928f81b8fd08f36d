import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientSecretEntity } from '../../identity/clients/persistence/client-secret.entity';
import { ClientEntity } from '../../identity/clients/persistence/client.entity';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { ClientRegistrationController } from './client-registration.controller';
import { ClientRegistrationService } from './client-registration.service';
import { TypeOrmRegisteredClientRepository } from './persistence/typeorm-registered-client.repository';
import { RegisteredClientRepository } from './registered-client.repository';
import { RegistrationTokensModule } from './registration-tokens.module';
import { UnusedClientPurger } from './unused-client.purger';

/** Dynamic client registration (RFC 7591, RFC 7592) and the removal of unused self-registered clients (docs/agents.md). */
@Module({
  // ClientsModule's entities: registered again here for the repositories of the self-registered rows.
  imports: [TypeOrmModule.forFeature([ClientEntity, ClientSecretEntity]), ResourcesModule, RateLimitModule, RegistrationTokensModule],
  controllers: [ClientRegistrationController],
  providers: [{ provide: RegisteredClientRepository, useClass: TypeOrmRegisteredClientRepository }, ClientRegistrationService, UnusedClientPurger],
  exports: [UnusedClientPurger],
})
export class ClientRegistrationModule {}

import { Module } from '@nestjs/common';
import { PartnerAuthorizationServerRepository } from './partner-authorization-server.repository';
import { PartnerAuthorizationServers } from './partner-authorization-servers';
import { PostgresPartnerAuthorizationServerRepository } from './persistence/postgres-partner-authorization-server.repository';

/** Partner authorization servers of other trust domains (docs/chaining.md). */
@Module({
  providers: [{ provide: PartnerAuthorizationServerRepository, useClass: PostgresPartnerAuthorizationServerRepository }, PartnerAuthorizationServers],
  exports: [PartnerAuthorizationServers],
})
export class PartnersModule {}

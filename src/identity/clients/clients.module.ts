import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientMetadataDocumentResolver } from './self-registered/client-metadata-document.resolver';
import { ResourcesModule } from '../resources/resources.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { ClientRepository } from './client.repository';
import { ClientStore } from './client.store';
import { ClientSecretEntity } from './persistence/client-secret.entity';
import { ClientWorkloadIdentityEntity } from './persistence/client-workload-identity.entity';
import { ClientEntity } from './persistence/client.entity';
import { TypeOrmClientRepository } from './persistence/typeorm-client.repository';
import { RedirectOrigins } from './redirect-origins';

@Module({
  imports: [TypeOrmModule.forFeature([ClientEntity, ClientSecretEntity, ClientWorkloadIdentityEntity]), ResourcesModule, RateLimitModule],
  providers: [{ provide: ClientRepository, useClass: TypeOrmClientRepository }, ClientStore, RedirectOrigins, ClientMetadataDocumentResolver],
  exports: [ClientRepository, ClientStore, RedirectOrigins],
})
export class ClientsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientAuthGuard } from './client-auth.guard';
import { ClientAuthenticator } from './client-authenticator';
import { ClientRepository } from './client.repository';
import { ClientStore } from './client.store';
import { ClientSecretEntity } from './persistence/client-secret.entity';
import { ClientEntity } from './persistence/client.entity';
import { TypeOrmClientRepository } from './persistence/typeorm-client.repository';

@Module({
  imports: [TypeOrmModule.forFeature([ClientEntity, ClientSecretEntity])],
  providers: [{ provide: ClientRepository, useClass: TypeOrmClientRepository }, ClientStore, ClientAuthenticator, ClientAuthGuard],
  exports: [ClientRepository, ClientStore, ClientAuthenticator, ClientAuthGuard],
})
export class ClientsModule {}

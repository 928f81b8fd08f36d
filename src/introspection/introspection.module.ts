import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { ClientAuthModule } from '../client-auth/client-auth.module';
import { ClientsModule } from '../clients/clients.module';
import { RefreshTokensModule } from '../refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../resources/resources.module';
import { UsersModule } from '../users/users.module';
import { IntrospectionController } from './introspection.controller';
import { IntrospectionService } from './introspection.service';

@Module({
  imports: [ClientsModule, ClientAuthModule, AccessTokenModule, RefreshTokensModule, ResourcesModule, UsersModule],
  controllers: [IntrospectionController],
  providers: [IntrospectionService],
})
export class IntrospectionModule {}

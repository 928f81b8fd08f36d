import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import { ClientsModule } from '../../identity/clients/clients.module';
import { RefreshTokensModule } from '../../tokens/refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { UsersModule } from '../../identity/users/users.module';
import { IntrospectionController } from './introspection.controller';
import { IntrospectionService } from './introspection.service';

@Module({
  imports: [ClientsModule, ClientAuthModule, AccessTokenModule, RefreshTokensModule, ResourcesModule, UsersModule],
  controllers: [IntrospectionController],
  providers: [IntrospectionService],
})
export class IntrospectionModule {}

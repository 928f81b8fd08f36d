import { DynamicModule, Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { ClientAuthModule } from '../client-auth/client-auth.module';
import { ClientsModule } from '../clients/clients.module';
import { GrantsModule, type GrantRegistration } from '../grants/grants.module';
import { IdTokenModule } from '../id-token/id-token.module';
import { RefreshTokensModule } from '../refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../resources/resources.module';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

@Module({})
export class TokenModule {
  static register(grants: GrantRegistration): DynamicModule {
    return {
      module: TokenModule,
      imports: [ClientsModule, ClientAuthModule, ResourcesModule, AccessTokenModule, RefreshTokensModule, IdTokenModule, GrantsModule.register(grants)],
      controllers: [TokenController],
      providers: [TokenService],
      exports: [GrantsModule],
    };
  }
}

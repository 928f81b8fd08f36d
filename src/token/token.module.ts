import { DynamicModule, Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { AuditModule } from '../audit/audit.module';
import { AuthorizeModule } from '../authorize/authorize.module';
import { ClientAuthModule } from '../client-auth/client-auth.module';
import { ClientsModule } from '../clients/clients.module';
import { DpopModule } from '../dpop/dpop.module';
import { IdTokenModule } from '../id-token/id-token.module';
import { RefreshTokensModule } from '../refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../resources/resources.module';
import { UsersModule } from '../users/users.module';
import { TokenController } from './token.controller';
import { TokenResponseGenerator } from './token-response.generator';
import { TokenService } from './token.service';

@Module({})
export class TokenModule {
  /** `grants`: the application's `GrantsModule.register(…)`, the validators this endpoint serves. */
  static register(grants: DynamicModule): DynamicModule {
    return {
      module: TokenModule,
      imports: [
        ClientsModule,
        ClientAuthModule,
        ResourcesModule,
        AccessTokenModule,
        RefreshTokensModule,
        IdTokenModule,
        AuthorizeModule,
        AuditModule,
        UsersModule,
        DpopModule,
        grants,
      ],
      controllers: [TokenController],
      providers: [TokenService, TokenResponseGenerator],
    };
  }
}

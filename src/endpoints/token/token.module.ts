import { DynamicModule, Module } from '@nestjs/common';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { AuditModule } from '../../platform/audit/audit.module';
import { AuthorizeModule } from '../../tokens/authorization/authorize.module';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import { ClientsModule } from '../../identity/clients/clients.module';
import { DpopModule } from '../../tokens/dpop/dpop.module';
import { IdTokenModule } from '../../tokens/id-token/id-token.module';
import { RefreshTokensModule } from '../../tokens/refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { UsersModule } from '../../identity/users/users.module';
import { TokenController } from './token.controller';
import { TokenResponseGenerator } from './token-response.generator';
import { TokenService } from './token.service';
import { GrantRunner } from './grant-runner';

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
      providers: [TokenService, TokenResponseGenerator, GrantRunner],
    };
  }
}

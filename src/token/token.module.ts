import { DynamicModule, Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { ClientsModule } from '../clients/clients.module';
import type { GrantValidatorClass } from '../grants/grant-validator';
import { GrantsModule } from '../grants/grants.module';
import { ResourcesModule } from '../resources/resources.module';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

@Module({})
export class TokenModule {
  static register(grantValidators: readonly GrantValidatorClass[]): DynamicModule {
    return {
      module: TokenModule,
      imports: [ClientsModule, ResourcesModule, AccessTokenModule, GrantsModule.register(grantValidators)],
      controllers: [TokenController],
      providers: [TokenService],
      exports: [GrantsModule],
    };
  }
}

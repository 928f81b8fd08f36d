import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { RefreshTokensModule } from '../refresh-tokens/refresh-tokens.module';
import { UsersModule } from '../users/users.module';
import { GRANT_VALIDATORS, type GrantValidatorClass } from './grant-validator';
import { GrantValidatorRegistry } from './grant-validator.registry';

/** Collects every grant validator through the `GRANT_VALIDATORS` multi-injection token. */
@Module({})
export class GrantsModule {
  static register(validators: readonly GrantValidatorClass[]): DynamicModule {
    const validatorProviders: Provider[] = validators.map((validator) => ({
      provide: validator,
      useFactory: (...dependencies: never[]) => new validator(...dependencies),
      inject: [...((validator.inject ?? []) as never[])],
    }));
    return {
      module: GrantsModule,
      global: true,
      imports: [AccessTokenModule, UsersModule, RefreshTokensModule],
      providers: [
        ...validatorProviders,
        { provide: GRANT_VALIDATORS, useFactory: (...instances: unknown[]) => instances, inject: [...validators] },
        GrantValidatorRegistry,
      ],
      exports: [GrantValidatorRegistry],
    };
  }
}

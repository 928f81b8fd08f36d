import { DynamicModule, Module } from '@nestjs/common';
import { exportedGrantProviders, type GrantModule } from './grant-modules';
import { GRANT_VALIDATORS, GrantValidatorRegistry } from './grant-validator.registry';
import type { TokenExchangeHandler } from './token-exchange-handler';
import { TokenExchangeHandlers } from './token-exchange-handlers';

/** The grant modules the token endpoint serves: Tollgate's own (`BUILT_IN_GRANT_MODULES`) and the application's, alike. */
export interface GrantRegistration {
  readonly modules: readonly GrantModule[];
}

/**
 * The one registration path of every grant (docs/extending.md): each module is imported, and what it
 * exports is collected — its validators into `GRANT_VALIDATORS` (a missing constructor dependency
 * stops the boot, naming the class), its token-exchange handlers into `TokenExchangeHandlers`.
 * Import the returned module object itself wherever the registry is read (token endpoint,
 * discovery): one object is one module instance.
 */
@Module({})
export class GrantsModule {
  static register({ modules }: GrantRegistration): DynamicModule {
    const providers = modules.map(exportedGrantProviders);
    const validators = providers.flatMap((exported) => exported.validators);
    const handlers = providers.flatMap((exported) => exported.exchangeHandlers);
    return {
      module: GrantsModule,
      imports: [...modules],
      providers: [
        {
          provide: GRANT_VALIDATORS,
          useFactory: (exchange: TokenExchangeHandlers, ...instances: unknown[]) => {
            for (const handler of instances.slice(validators.length)) exchange.add(handler as TokenExchangeHandler);
            return instances.slice(0, validators.length);
          },
          inject: [TokenExchangeHandlers, ...validators, ...handlers],
        },
        GrantValidatorRegistry,
      ],
      exports: [GrantValidatorRegistry],
    };
  }
}

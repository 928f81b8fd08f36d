import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { GRANT_VALIDATORS, type GrantValidatorClass } from './grant-validator';
import { GrantValidatorRegistry } from './grant-validator.registry';

/** The grants the token endpoint serves, and the modules their constructors' dependencies come from. */
export interface GrantRegistration {
  readonly validators: readonly GrantValidatorClass[];
  readonly imports?: ModuleMetadata['imports'];
}

/**
 * Nest has no multi-providers: each validator is an ordinary class provider (a missing constructor
 * dependency stops the boot, naming the class), and `GRANT_VALIDATORS` collects the instances.
 * The validators see only the modules in `imports`. Import the returned module object itself wherever
 * the registry is read (token endpoint, discovery): one object is one module instance.
 */
@Module({})
export class GrantsModule {
  static register({ validators, imports = [] }: GrantRegistration): DynamicModule {
    return {
      module: GrantsModule,
      imports,
      providers: [
        ...validators,
        { provide: GRANT_VALIDATORS, useFactory: (...instances: unknown[]) => instances, inject: [...validators] },
        GrantValidatorRegistry,
      ],
      exports: [GrantValidatorRegistry],
    };
  }
}

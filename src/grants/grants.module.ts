import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { exportedGrantValidators, type GrantModule } from './grant-modules';
import { GRANT_VALIDATORS, type GrantValidatorClass } from './grant-validator';
import { GrantValidatorRegistry } from './grant-validator.registry';

/** The grants the token endpoint serves, and the modules their constructors' dependencies come from. */
export interface GrantRegistration {
  readonly validators: readonly GrantValidatorClass[];
  readonly imports?: ModuleMetadata['imports'];
  /** Modules that provide and export their own validators, built with the module's dependencies. */
  readonly modules?: readonly GrantModule[];
}

/**
 * Nest has no multi-providers: each validator is an ordinary class provider (a missing constructor
 * dependency stops the boot, naming the class), and `GRANT_VALIDATORS` collects the instances.
 * The validators see only the modules in `imports`; those of `modules` are built inside their own
 * module. Import the returned module object itself wherever the registry is read (token endpoint,
 * discovery): one object is one module instance.
 */
@Module({})
export class GrantsModule {
  static register({ validators, imports = [], modules = [] }: GrantRegistration): DynamicModule {
    const exported = modules.flatMap(exportedGrantValidators);
    return {
      module: GrantsModule,
      imports: [...imports, ...modules],
      providers: [
        ...validators,
        { provide: GRANT_VALIDATORS, useFactory: (...instances: unknown[]) => instances, inject: [...validators, ...exported] },
        GrantValidatorRegistry,
      ],
      exports: [GrantValidatorRegistry],
    };
  }
}

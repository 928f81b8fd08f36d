import type { DynamicModule, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import type { GrantValidatorClass } from './grant-validator';

/**
 * A Nest module of an application or an extension that provides grant validators and exports them:
 * each exported class with a `validate` method is served by the token endpoint, with the
 * dependencies the module gives it (docs/extending.md).
 */
export type GrantModule = Type<unknown> | DynamicModule;

/** The grant validators a module exports; a module that exports none is refused, naming it. */
export function exportedGrantValidators(module: GrantModule): GrantValidatorClass[] {
  const moduleClass = typeof module === 'function' ? module : module.module;
  const exported: unknown[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.EXPORTS, moduleClass) as unknown[] | undefined) ?? []),
    ...(typeof module === 'function' ? [] : (module.exports ?? [])),
  ];
  const validators = exported.filter(isGrantValidatorClass);
  if (validators.length === 0) throw new Error(`${moduleClass.name} exports no grant validator (a class with a validate method)`);
  return validators;
}

function isGrantValidatorClass(token: unknown): token is GrantValidatorClass {
  return typeof token === 'function' && typeof (token.prototype as { validate?: unknown } | undefined)?.validate === 'function';
}

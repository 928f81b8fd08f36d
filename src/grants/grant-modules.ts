import type { DynamicModule, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import type { GrantValidatorClass } from './grant-validator';
import type { TokenExchangeHandlerClass } from './token-exchange-handler';

/**
 * A Nest module of an application, an extension or Tollgate itself that provides grant validators
 * (and token-exchange handlers) and exports them: each exported class with a `validate` method is
 * served by the token endpoint, each with an `exchange` method by RFC 8693 token exchange, with the
 * dependencies the module gives it (docs/extending.md).
 */
export type GrantModule = Type<unknown> | DynamicModule;

/** What a grant module exports for the token endpoint. */
export interface GrantProviders {
  readonly validators: GrantValidatorClass[];
  readonly exchangeHandlers: TokenExchangeHandlerClass[];
}

/** The grant validators and token-exchange handlers a module exports; a module that exports neither is refused, naming it. */
export function exportedGrantProviders(module: GrantModule): GrantProviders {
  const moduleClass = typeof module === 'function' ? module : module.module;
  const exported: unknown[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.EXPORTS, moduleClass) as unknown[] | undefined) ?? []),
    ...(typeof module === 'function' ? [] : (module.exports ?? [])),
  ];
  const validators = exported.filter((token) => hasMethod(token, 'validate')) as GrantValidatorClass[];
  const exchangeHandlers = exported.filter((token) => hasMethod(token, 'exchange')) as TokenExchangeHandlerClass[];
  if (validators.length === 0 && exchangeHandlers.length === 0) {
    throw new Error(`${moduleClass.name} exports no grant validator (a class with a validate method) and no token-exchange handler`);
  }
  return { validators, exchangeHandlers };
}

/** The grant validators a module exports (see `exportedGrantProviders`). */
export function exportedGrantValidators(module: GrantModule): GrantValidatorClass[] {
  return exportedGrantProviders(module).validators;
}

function hasMethod(token: unknown, name: string): boolean {
  return typeof token === 'function' && typeof (token.prototype as Record<string, unknown> | undefined)?.[name] === 'function';
}

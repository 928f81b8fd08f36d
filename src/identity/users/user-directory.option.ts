import type { Type, ValueProvider } from '@nestjs/common';
import type { UserDirectory } from './user-directory';

/** The DI token of an embedding application's `UserDirectory` class (`AppOptions.userDirectory`). */
export const USER_DIRECTORY_CLASS = Symbol('USER_DIRECTORY_CLASS');

/** The option's provider for the configuration module, none when Tollgate's own table is used. */
export function userDirectoryOption(directory?: Type<UserDirectory>): ValueProvider[] {
  return directory ? [{ provide: USER_DIRECTORY_CLASS, useValue: directory }] : [];
}

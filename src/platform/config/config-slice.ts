import type { FactoryProvider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app.config';

/**
 * A typed part of `AppConfig`, declared once and injected by its `KEY`: @nestjs/config's
 * pattern, over the configuration `loadConfig` validated (an embedding application or a test passes its own).
 */
export type ConfigSlice<T> = ((config: AppConfig) => T) & { readonly KEY: string };

export type ConfigType<S extends ConfigSlice<unknown>> = ReturnType<S>;

export function registerAs<T>(name: string, select: (config: AppConfig) => T): ConfigSlice<T> {
  return Object.assign((config: AppConfig) => select(config), { KEY: `CONFIGURATION(${name})` });
}

/** The slice's provider, computed once from the application's configuration (ConfigModule provides every slice). */
export function sliceProvider(slice: ConfigSlice<unknown>): FactoryProvider {
  return { provide: slice.KEY, useFactory: slice, inject: [APP_CONFIG] };
}

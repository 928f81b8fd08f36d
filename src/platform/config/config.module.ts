import { DynamicModule, Global, Module, type FactoryProvider, type ModuleMetadata, type ValueProvider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app.config';
import { sliceProvider } from './config-slice';
import { CONFIG_SLICES } from './config.slices';

/**
 * The one global module: the validated configuration, its typed slices, and what an embedding application plugs in besides the environment (each
 * option a provider defined by the module that reads it).
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, embeddingOptions: readonly ValueProvider[] = []): DynamicModule {
    const providers = [{ provide: APP_CONFIG, useValue: config }, ...CONFIG_SLICES.map(sliceProvider), ...embeddingOptions];
    return { module: ConfigModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  /** The configuration computed by a factory of the embedding application, with what it injects. */
  static forRootAsync(source: AsyncConfigSource, embeddingOptions: readonly ValueProvider[] = []): DynamicModule {
    const { imports = [], inject = [], useFactory } = source;
    const providers = [{ provide: APP_CONFIG, useFactory, inject }, ...CONFIG_SLICES.map(sliceProvider), ...embeddingOptions];
    return { module: ConfigModule, imports, providers, exports: providers.map((provider) => provider.provide) };
  }
}

export interface AsyncConfigSource {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: FactoryProvider['inject'];
  readonly useFactory: (...dependencies: never[]) => AppConfig | Promise<AppConfig>;
}

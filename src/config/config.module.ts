import { DynamicModule, Global, Module, type Type } from '@nestjs/common';
import type { UserDirectory } from '../users/user-directory';
import { USER_DIRECTORY_CLASS } from '../users/user-directory.option';
import { APP_CONFIG, type AppConfig } from './app.config';

/** What an embedding application plugs in besides the environment (docs/users.md). */
export interface EmbeddingOptions {
  readonly userDirectory?: Type<UserDirectory>;
}

/** Provides the validated configuration (`APP_CONFIG`) and the embedding options to every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, embedding: EmbeddingOptions = {}): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: config },
      ...(embedding.userDirectory ? [{ provide: USER_DIRECTORY_CLASS, useValue: embedding.userDirectory }] : []),
    ];
    return { module: ConfigModule, providers, exports: providers.map((provider) => provider.provide) };
  }
}

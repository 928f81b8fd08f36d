import { DynamicModule, Module } from '@nestjs/common';
import { KeysModule } from '../../tokens/keys/keys.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { DiscoveryController } from './discovery.controller';
import { LandingController } from './landing.controller';

@Module({})
export class DiscoveryModule {
  /** `grants`: the application's `GrantsModule.register(…)`, whose grant types discovery lists. */
  static register(grants: DynamicModule): DynamicModule {
    return { module: DiscoveryModule, imports: [KeysModule, ResourcesModule, grants], controllers: [DiscoveryController, LandingController] };
  }
}

import { Module } from '@nestjs/common';
import { KeysModule } from '../keys/keys.module';
import { ResourcesModule } from '../resources/resources.module';
import { DiscoveryController } from './discovery.controller';

@Module({ imports: [KeysModule, ResourcesModule], controllers: [DiscoveryController] })
export class DiscoveryModule {}

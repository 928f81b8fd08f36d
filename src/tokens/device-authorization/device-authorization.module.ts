import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { DeviceAuthorizationRepository } from './device-authorization.repository';
import { DeviceAuthorizationService } from './device-authorization.service';
import { DeviceAuthorizationEntity } from './persistence/device-authorization.entity';
import { TypeOrmDeviceAuthorizationRepository } from './persistence/typeorm-device-authorization.repository';

/** The device authorization grant's requests (RFC 8628): started, answered, polled, purged. */
@Module({
  imports: [TypeOrmModule.forFeature([DeviceAuthorizationEntity]), ResourcesModule],
  providers: [{ provide: DeviceAuthorizationRepository, useClass: TypeOrmDeviceAuthorizationRepository }, DeviceAuthorizationService],
  exports: [DeviceAuthorizationService],
})
export class DeviceAuthorizationModule {}

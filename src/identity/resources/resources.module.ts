import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiResourceEntity, IdentityResourceEntity } from './persistence/resource.entities';
import { TypeOrmResourceRepository } from './persistence/typeorm-resource.repository';
import { ResourceRepository } from './resource.repository';
import { ResourceStore } from './resource.store';

@Module({
  imports: [TypeOrmModule.forFeature([IdentityResourceEntity, ApiResourceEntity])],
  providers: [{ provide: ResourceRepository, useClass: TypeOrmResourceRepository }, ResourceStore],
  exports: [ResourceStore],
})
export class ResourcesModule {}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Resources } from '../resource';
import { ResourceRepository } from '../resource.repository';
import { ApiResourceEntity, IdentityResourceEntity } from './resource.entities';

@Injectable()
export class TypeOrmResourceRepository extends ResourceRepository {
  constructor(
    @InjectRepository(IdentityResourceEntity) private readonly identity: Repository<IdentityResourceEntity>,
    @InjectRepository(ApiResourceEntity) private readonly apis: Repository<ApiResourceEntity>,
  ) {
    super();
  }

  async loadEnabled(): Promise<Resources> {
    const [identityResources, apiResources] = await Promise.all([
      this.identity.find({ where: { enabled: true }, order: { name: 'ASC' } }),
      this.apis.find({ where: { enabled: true }, order: { name: 'ASC' } }),
    ]);
    return {
      identityResources: identityResources.map(({ name, claimTypes }) => ({ name, claimTypes })),
      apiResources: apiResources.map(({ name, scopes, resourceUri, servingClientId, openToSelfRegistered }) => ({
        name,
        scopes,
        ...(resourceUri ? { uri: resourceUri } : {}),
        ...(servingClientId ? { servingClientId } : {}),
        ...(openToSelfRegistered ? { openToSelfRegistered } : {}),
      })),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Client } from '../client';
import { ClientRepository } from '../client.repository';
import { ClientEntity } from './client.entity';

@Injectable()
export class TypeOrmClientRepository extends ClientRepository {
  constructor(@InjectRepository(ClientEntity) private readonly clients: Repository<ClientEntity>) {
    super();
  }

  async findById(clientId: string): Promise<Client | undefined> {
    const entity = await this.clients.findOne({ where: { clientId }, relations: { secrets: true } });
    return entity ? toClient(entity) : undefined;
  }
}

function toClient(entity: ClientEntity): Client {
  return {
    clientId: entity.clientId,
    enabled: entity.enabled,
    allowedGrantTypes: entity.allowedGrantTypes,
    allowedScopes: entity.allowedScopes,
    accessTokenLifetimeSeconds: entity.accessTokenLifetime,
    refreshTokenLifetimeSeconds: entity.refreshTokenLifetime,
    mayActClientId: entity.mayActClientId ?? undefined,
    transactionTokens: entity.transactionTokens,
    secrets: entity.secrets.map((secret) => ({
      hash: Buffer.from(secret.valueHash, 'base64'),
      expiresAt: secret.expiresAt ?? undefined,
    })),
  };
}

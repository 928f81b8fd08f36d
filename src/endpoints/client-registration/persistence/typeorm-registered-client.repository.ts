import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Not, Repository } from 'typeorm';
import { ClientSecretEntity } from '../../../identity/clients/persistence/client-secret.entity';
import { ClientEntity } from '../../../identity/clients/persistence/client.entity';
import type { RegisteredClientRecord } from '../client-registration';
import { RegisteredClientRepository, type StoredRegistration } from '../registered-client.repository';

/** The dynamically registered rows of the clients table (ClientsModule's entities, registered again by ClientRegistrationModule). */
@Injectable()
export class TypeOrmRegisteredClientRepository extends RegisteredClientRepository {
  constructor(@InjectRepository(ClientEntity) private readonly clients: Repository<ClientEntity>) {
    super();
  }

  async create(record: RegisteredClientRecord, hashes: { readonly secret?: string; readonly registrationAccessToken: string }): Promise<Date> {
    return this.clients.manager.transaction(async (manager) => {
      const inserted = await manager.getRepository(ClientEntity).insert({
        ...settings(record),
        requireConsent: true,
        selfRegistered: 'dynamic',
        registrationAccessTokenHash: hashes.registrationAccessToken,
        lastUsedAt: () => 'now()',
      });
      if (hashes.secret !== undefined) {
        await manager.getRepository(ClientSecretEntity).insert({ clientId: record.clientId, valueHash: hashes.secret, description: 'dynamic registration' });
      }
      return (inserted.generatedMaps[0] as Pick<ClientEntity, 'createdAt'>).createdAt;
    });
  }

  async find(clientId: string): Promise<StoredRegistration | undefined> {
    const entity = await this.clients.findOne({
      select: { clientId: true, registration: true, registrationAccessTokenHash: true, createdAt: true },
      where: { clientId, selfRegistered: 'dynamic' },
    });
    if (!entity?.registrationAccessTokenHash) return undefined;
    return {
      clientId,
      registration: entity.registration as Record<string, unknown>,
      registrationAccessTokenHash: entity.registrationAccessTokenHash,
      issuedAt: entity.createdAt,
    };
  }

  async update(record: RegisteredClientRecord): Promise<void> {
    const { clientId, ...changes } = settings(record);
    await this.clients.update({ clientId, selfRegistered: 'dynamic' }, { ...changes, lastUsedAt: () => 'now()' });
  }

  async delete(clientId: string): Promise<void> {
    await this.clients.delete({ clientId, selfRegistered: 'dynamic' });
  }

  async purgeUnused(before: Date): Promise<number> {
    const selfRegistered = Not(IsNull());
    const { affected } = await this.clients
      .createQueryBuilder()
      .delete()
      .where([
        { selfRegistered, lastUsedAt: LessThan(before) },
        { selfRegistered, lastUsedAt: IsNull(), createdAt: LessThan(before) },
      ])
      .execute();
    return affected ?? 0;
  }
}

function settings(record: RegisteredClientRecord) {
  return {
    clientId: record.clientId,
    clientName: record.clientName ?? null,
    allowedGrantTypes: [...record.grantTypes],
    allowedScopes: [...record.scopes],
    publicClient: record.public,
    redirectUris: [...record.redirectUris],
    postLogoutRedirectUris: [...record.postLogoutRedirectUris],
    // A jsonb column typed `unknown` takes no plain null: SQL NULL clears a JWK Set an update removes.
    jwks: record.jwks ?? (() => 'NULL'),
    backchannelLogoutUri: record.backchannelLogout?.uri ?? null,
    backchannelLogoutSessionRequired: record.backchannelLogout?.sessionRequired ?? false,
    registration: record.registration,
  };
}

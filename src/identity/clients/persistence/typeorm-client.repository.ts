import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Client } from '../client';
import { ClientRepository } from '../client.repository';
import type { JwkSetSource } from '../../../protocol/jwk-set-source';
import { ClientWorkloadIdentityEntity } from './client-workload-identity.entity';
import { ClientEntity } from './client.entity';

@Injectable()
export class TypeOrmClientRepository extends ClientRepository {
  constructor(
    @InjectRepository(ClientEntity) private readonly clients: Repository<ClientEntity>,
    @InjectRepository(ClientWorkloadIdentityEntity) private readonly identities: Repository<ClientWorkloadIdentityEntity>,
  ) {
    super();
  }

  async findById(clientId: string): Promise<Client | undefined> {
    const entity = await this.clients.findOne({ where: { clientId }, relations: { secrets: true, workloadIdentities: true } });
    if (entity?.selfRegistered === 'dynamic' && isStale(entity.lastUsedAt)) await this.markUsed(clientId);
    return entity ? toClient(entity) : undefined;
  }

  async recordMetadataDocumentClient(clientId: string): Promise<void> {
    // Raw SQL: INSERT … ON CONFLICT … DO UPDATE … WHERE records the client or marks it used in one statement, never touching another kind of client.
    await this.clients.query(
      `INSERT INTO clients (client_id, self_registered, last_used_at) VALUES ($1, 'metadata_document', now())
       ON CONFLICT (client_id) DO UPDATE SET last_used_at = now() WHERE clients.self_registered = 'metadata_document'`,
      [clientId],
    );
  }

  /** docs/agents.md#expiry: a dynamically registered client looked up is in use; written at most hourly. */
  private async markUsed(clientId: string): Promise<void> {
    await this.clients.update({ clientId }, { lastUsedAt: () => 'now()' });
  }

  async findClientIdByWorkloadIdentity(issuer: string, subject: string): Promise<string | undefined> {
    return (await this.identities.findOne({ where: { issuer, subject } }))?.clientId;
  }

  async findAllRedirectUris(): Promise<string[]> {
    // Raw SQL: unnest() flattens every client's array column in the database, not in memory.
    const rows: { uri: string }[] = await this.clients.query('SELECT DISTINCT unnest(redirect_uris) AS uri FROM clients WHERE enabled');
    return rows.map((row) => row.uri);
  }
}

function toClient(entity: ClientEntity): Client {
  return {
    clientId: entity.clientId,
    ...(entity.clientName ? { clientName: entity.clientName } : {}),
    enabled: entity.enabled,
    allowedGrantTypes: entity.allowedGrantTypes,
    allowedScopes: entity.allowedScopes,
    accessTokenLifetimeSeconds: entity.accessTokenLifetime,
    refreshTokenLifetimeSeconds: entity.refreshTokenLifetime,
    mayActClientId: entity.mayActClientId ?? undefined,
    transactionTokens: entity.transactionTokens,
    public: entity.publicClient,
    redirectUris: entity.redirectUris,
    postLogoutRedirectUris: entity.postLogoutRedirectUris,
    requireConsent: entity.requireConsent,
    requirePushedAuthorizationRequests: entity.requirePushedAuthorizationRequests,
    requireDpop: entity.requireDpop,
    requirePhr: entity.requirePhr,
    secrets: entity.secrets.map((secret) => ({
      hash: Buffer.from(secret.valueHash, 'base64'),
      expiresAt: secret.expiresAt ?? undefined,
    })),
    assertionKeys: assertionKeys(entity),
    workloadIdentities: entity.workloadIdentities.map(({ issuer, subject }) => ({ issuer, subject })),
    ...(entity.selfRegistered ? { selfRegistered: entity.selfRegistered } : {}),
  };
}

function isStale(lastUsedAt: Date | null): boolean {
  return lastUsedAt === null || Date.now() - lastUsedAt.getTime() > 3600_000;
}

function assertionKeys(entity: ClientEntity): JwkSetSource | undefined {
  if (entity.jwksUri) return { type: 'remote', uri: entity.jwksUri };
  if (entity.jwks === null || entity.jwks === undefined) return undefined;
  const keys = (entity.jwks as { keys?: unknown }).keys;
  return { type: 'inline', jwks: { keys: Array.isArray(keys) ? keys : [] } };
}

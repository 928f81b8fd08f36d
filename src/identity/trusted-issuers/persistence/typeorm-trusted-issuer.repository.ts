import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { JSONWebKeySet } from 'jose';
import { Repository } from 'typeorm';
import type { JwkSetSource } from '../../../protocol/jwk-set-source';
import type { TrustedIssuer, TrustedIssuerKind, TrustedIssuerRole } from '../trusted-issuer';
import { TrustedIssuerRepository } from '../trusted-issuer.repository';
import { TrustedIssuerEntity } from './trusted-issuer.entity';

@Injectable()
export class TypeOrmTrustedIssuerRepository extends TrustedIssuerRepository {
  constructor(@InjectRepository(TrustedIssuerEntity) private readonly issuers: Repository<TrustedIssuerEntity>) {
    super();
  }

  async findByIssuer(issuer: string): Promise<TrustedIssuer | undefined> {
    const entity = await this.issuers.findOne({ where: { issuer } });
    if (!entity) return undefined;
    // client_subject_issuers is a join table without an entity of its own.
    const trustedBy: { client_id: string }[] =
      entity.role === 'subject' ? await this.issuers.query('SELECT client_id FROM client_subject_issuers WHERE issuer = $1', [issuer]) : [];
    return toTrustedIssuer(
      entity,
      trustedBy.map((row) => row.client_id),
    );
  }
}

export function toTrustedIssuer(entity: TrustedIssuerEntity, trustedBy: readonly string[] = []): TrustedIssuer {
  const subject =
    entity.role === 'subject' && entity.subjectAudience && entity.subjectUserClaim
      ? { audience: entity.subjectAudience, userClaim: entity.subjectUserClaim, identityScopes: entity.subjectIdentityScopes ?? [], trustedBy }
      : undefined;
  return {
    ...(subject ? { subject } : {}),
    issuer: entity.issuer,
    role: entity.role as TrustedIssuerRole,
    kind: entity.kind as TrustedIssuerKind,
    keys: keySource(entity),
    enabled: entity.enabled,
  };
}

function keySource(entity: TrustedIssuerEntity): JwkSetSource {
  if (entity.jwksUri) return { type: 'remote', uri: entity.jwksUri };
  const keys = (entity.jwks as { keys?: unknown } | null)?.keys;
  // A malformed stored set verifies nothing rather than failing every lookup.
  return { type: 'inline', jwks: { keys: Array.isArray(keys) ? (keys as JSONWebKeySet['keys']) : [] } };
}

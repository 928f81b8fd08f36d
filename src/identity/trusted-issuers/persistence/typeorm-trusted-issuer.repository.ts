import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { JSONWebKeySet } from 'jose';
import { Repository } from 'typeorm';
import type { JwkSetSource } from '../../../protocol/jwk-set-source';
import type { AuthorizationGrantIssuerPolicy, TrustedIssuer, TrustedIssuerKind, TrustedIssuerRole } from '../trusted-issuer';
import { TrustedIssuerRepository } from '../trusted-issuer.repository';
import { ClientSubjectIssuerEntity } from './client-subject-issuer.entity';
import { TrustedIssuerEntity } from './trusted-issuer.entity';

@Injectable()
export class TypeOrmTrustedIssuerRepository extends TrustedIssuerRepository {
  constructor(
    @InjectRepository(TrustedIssuerEntity) private readonly issuers: Repository<TrustedIssuerEntity>,
    @InjectRepository(ClientSubjectIssuerEntity) private readonly subjectIssuers: Repository<ClientSubjectIssuerEntity>,
  ) {
    super();
  }

  async findByIssuer(issuer: string): Promise<TrustedIssuer | undefined> {
    const entity = await this.issuers.findOne({ where: { issuer } });
    if (!entity) return undefined;
    if (entity.role === 'authorization-grant') return { ...toTrustedIssuer(entity), ...(await this.authorizationGrantPolicy(issuer)) };
    const trustedBy = entity.role === 'subject' ? await this.subjectIssuers.find({ select: { clientId: true }, where: { issuer } }) : [];
    return toTrustedIssuer(
      entity,
      trustedBy.map((row) => row.clientId),
    );
  }

  /** An authorization-grant issuer without its settings row is trusted by no one. */
  private async authorizationGrantPolicy(issuer: string): Promise<{ authorizationGrant?: AuthorizationGrantIssuerPolicy }> {
    const [settings] = (await this.issuers.query(
      `SELECT user_claim, identity_scopes, max_lifetime_seconds,
              ARRAY(SELECT client_id FROM client_authorization_grant_issuers c WHERE c.issuer = a.issuer ORDER BY client_id) AS trusted_by
         FROM authorization_grant_issuers a WHERE issuer = $1`,
      [issuer],
    )) as { user_claim: string; identity_scopes: string[]; max_lifetime_seconds: number; trusted_by: string[] }[];
    if (!settings) return {};
    return {
      authorizationGrant: {
        userClaim: settings.user_claim,
        identityScopes: settings.identity_scopes,
        maxLifetimeSeconds: settings.max_lifetime_seconds,
        trustedBy: settings.trusted_by,
      },
    };
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

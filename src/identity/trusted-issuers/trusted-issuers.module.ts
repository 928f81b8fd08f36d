import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { ConfigType } from '../../platform/config/config-slice';
import { jwkSetsConfig } from '../../platform/config/config.slices';
import { AuthorizationGrantIssuers } from './authorization-grant-issuers';
import { ForeignJwtVerifier } from './foreign-jwt.verifier';
import { JwkSetFetcher } from './jwk-set.fetcher';
import { JwkSetResolver } from './jwk-set.resolver';
import { ClientSubjectIssuerEntity } from './persistence/client-subject-issuer.entity';
import { TrustedIssuerEntity } from './persistence/trusted-issuer.entity';
import { TypeOrmTrustedIssuerRepository } from './persistence/typeorm-trusted-issuer.repository';
import { DEFAULT_JWK_SET_CACHE_POLICY, JWK_SET_CACHE_POLICY, RemoteJwkSetCache } from './remote-jwk-set.cache';
import { TrustedIssuerRepository } from './trusted-issuer.repository';
import { TrustedIssuerStore } from './trusted-issuer.store';

/** Trusted issuers and the keys of every foreign JWT (docs/trusted-issuers.md). Import it where JWTs of others are verified. */
@Module({
  imports: [TypeOrmModule.forFeature([TrustedIssuerEntity, ClientSubjectIssuerEntity])],
  providers: [
    { provide: TrustedIssuerRepository, useClass: TypeOrmTrustedIssuerRepository },
    TrustedIssuerStore,
    JwkSetFetcher,
    {
      provide: JWK_SET_CACHE_POLICY,
      inject: [jwkSetsConfig.KEY],
      useFactory: (config: ConfigType<typeof jwkSetsConfig>) => ({ ...DEFAULT_JWK_SET_CACHE_POLICY, unknownKidRefetchMs: config.jwksRefetchSeconds * 1000 }),
    },
    RemoteJwkSetCache,
    JwkSetResolver,
    ForeignJwtVerifier,
    AuthorizationGrantIssuers,
  ],
  exports: [TrustedIssuerStore, JwkSetResolver, ForeignJwtVerifier, AuthorizationGrantIssuers],
})
export class TrustedIssuersModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ForeignJwtVerifier } from './foreign-jwt.verifier';
import { JwkSetFetcher } from './jwk-set.fetcher';
import { JwkSetResolver } from './jwk-set.resolver';
import { TrustedIssuerEntity } from './persistence/trusted-issuer.entity';
import { TypeOrmTrustedIssuerRepository } from './persistence/typeorm-trusted-issuer.repository';
import { RemoteJwkSetCache } from './remote-jwk-set.cache';
import { TrustedIssuerRepository } from './trusted-issuer.repository';
import { TrustedIssuerStore } from './trusted-issuer.store';

/** Trusted issuers and the keys of every foreign JWT (docs/trusted-issuers.md). Import it where JWTs of others are verified. */
@Module({
  imports: [TypeOrmModule.forFeature([TrustedIssuerEntity])],
  providers: [
    { provide: TrustedIssuerRepository, useClass: TypeOrmTrustedIssuerRepository },
    TrustedIssuerStore,
    JwkSetFetcher,
    RemoteJwkSetCache,
    JwkSetResolver,
    ForeignJwtVerifier,
  ],
  exports: [TrustedIssuerStore, JwkSetResolver, ForeignJwtVerifier],
})
export class TrustedIssuersModule {}

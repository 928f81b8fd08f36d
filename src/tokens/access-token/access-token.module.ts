import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MetricsModule } from '../../platform/metrics/metrics.module';
import { KeysModule } from '../keys/keys.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { SignalsModule } from '../../identity/signals/signals.module';
import { AccessTokenDenyList } from './access-token-deny-list';
import { AccessTokenIssuer } from './access-token.issuer';
import { AccessTokenValidator } from './access-token.validator';
import { OwnTokenVerifier } from './own-token.verifier';
import { RevokedAccessTokenEntity } from './persistence/revoked-access-token.entity';
import { TypeOrmRevokedAccessTokenRepository } from './persistence/typeorm-revoked-access-token.repository';
import { RevokedAccessTokenRepository } from './revoked-access-token.repository';
import { TokenMetricsProbe } from './token-metrics.probe';

@Module({
  imports: [JwtModule.register({}), KeysModule, ResourcesModule, SignalsModule, MetricsModule, TypeOrmModule.forFeature([RevokedAccessTokenEntity])],
  providers: [
    AccessTokenValidator,
    OwnTokenVerifier,
    AccessTokenIssuer,
    AccessTokenDenyList,
    { provide: RevokedAccessTokenRepository, useClass: TypeOrmRevokedAccessTokenRepository },
    TokenMetricsProbe,
  ],
  exports: [AccessTokenValidator, AccessTokenIssuer, AccessTokenDenyList],
})
export class AccessTokenModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokenModule } from '../access-token/access-token.module';
import { RefreshTokenEntity } from './persistence/refresh-token.entity';
import { TypeOrmRefreshTokenRepository } from './persistence/typeorm-refresh-token.repository';
import { RefreshTokenPurger } from './refresh-token.purger';
import { RefreshTokenRepository } from './refresh-token.repository';
import { RefreshTokenService } from './refresh-token.service';

@Module({
  imports: [TypeOrmModule.forFeature([RefreshTokenEntity]), AccessTokenModule],
  providers: [{ provide: RefreshTokenRepository, useClass: TypeOrmRefreshTokenRepository }, RefreshTokenService, RefreshTokenPurger],
  exports: [RefreshTokenService],
})
export class RefreshTokensModule {}

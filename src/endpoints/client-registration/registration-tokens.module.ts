import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RegistrationTokenEntity } from './persistence/registration-token.entity';
import { TypeOrmInitialAccessTokenRepository } from './persistence/typeorm-initial-access-token.repository';
import { InitialAccessTokenRepository } from './registered-client.repository';

/** The initial access tokens (RFC 7591 §3): the registration endpoint's and the operator command's (cli/registration-tokens.cli.ts). */
@Module({
  imports: [TypeOrmModule.forFeature([RegistrationTokenEntity])],
  providers: [{ provide: InitialAccessTokenRepository, useClass: TypeOrmInitialAccessTokenRepository }],
  exports: [InitialAccessTokenRepository],
})
export class RegistrationTokensModule {}

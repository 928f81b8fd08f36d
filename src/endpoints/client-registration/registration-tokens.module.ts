import { Module } from '@nestjs/common';
import { TypeOrmInitialAccessTokenRepository } from './persistence/typeorm-registered-client.repository';
import { InitialAccessTokenRepository } from './registered-client.repository';

/** The initial access tokens alone, for the operator command (cli/registration-tokens.cli.ts). */
@Module({
  providers: [{ provide: InitialAccessTokenRepository, useClass: TypeOrmInitialAccessTokenRepository }],
  exports: [InitialAccessTokenRepository],
})
export class RegistrationTokensModule {}

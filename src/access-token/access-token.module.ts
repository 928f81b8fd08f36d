import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { KeysModule } from '../keys/keys.module';
import { ResourcesModule } from '../resources/resources.module';
import { AccessTokenIssuer } from './access-token.issuer';
import { AccessTokenValidator } from './access-token.validator';

@Module({
  imports: [JwtModule.register({}), KeysModule, ResourcesModule],
  providers: [AccessTokenValidator, AccessTokenIssuer],
  exports: [AccessTokenValidator, AccessTokenIssuer],
})
export class AccessTokenModule {}

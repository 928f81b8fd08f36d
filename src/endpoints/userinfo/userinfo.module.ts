import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { DpopModule } from '../../tokens/dpop/dpop.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { UsersModule } from '../../identity/users/users.module';
import { BearerTokenGuard } from './bearer-token.guard';
import { ResourceTokenAuthenticator } from './resource-token.authenticator';
import { UserInfoController } from './userinfo.controller';
import { UserInfoService } from './userinfo.service';

@Module({
  imports: [AccessTokenModule, UsersModule, ResourcesModule, DpopModule],
  controllers: [UserInfoController],
  providers: [UserInfoService, BearerTokenGuard, ResourceTokenAuthenticator],
})
export class UserInfoModule {}

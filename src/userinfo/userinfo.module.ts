import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { DpopModule } from '../dpop/dpop.module';
import { ResourcesModule } from '../resources/resources.module';
import { UsersModule } from '../users/users.module';
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

import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { UsersModule } from '../../identity/users/users.module';
import { BearerTokenGuard } from './bearer-token.guard';
import { UserInfoController } from './userinfo.controller';
import { UserInfoService } from './userinfo.service';

@Module({
  imports: [AccessTokenModule, UsersModule, ResourcesModule],
  controllers: [UserInfoController],
  providers: [UserInfoService, BearerTokenGuard],
})
export class UserInfoModule {}

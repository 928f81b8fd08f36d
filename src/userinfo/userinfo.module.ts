import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { ResourcesModule } from '../resources/resources.module';
import { UsersModule } from '../users/users.module';
import { BearerTokenGuard } from './bearer-token.guard';
import { UserInfoController } from './userinfo.controller';
import { UserInfoService } from './userinfo.service';

@Module({
  imports: [AccessTokenModule, UsersModule, ResourcesModule],
  controllers: [UserInfoController],
  providers: [UserInfoService, BearerTokenGuard],
})
export class UserInfoModule {}

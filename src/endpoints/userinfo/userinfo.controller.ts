import { Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { NoStore } from '../../platform/http/no-store.decorator';
import { OAuthRoute } from '../../platform/http/oauth-route';
import type { UserInfoClaims } from './claims.mapper';
import { BearerTokenGuard, CurrentAccessToken } from './bearer-token.guard';
import { UserInfoService } from './userinfo.service';

/** OIDC Core §5.3: GET or POST, with the token as RFC 6750 §2.1 or §2.2 say; Fastify answers HEAD through GET. */
@Controller('connect/userinfo')
export class UserInfoController {
  constructor(private readonly userInfoService: UserInfoService) {}

  @Get()
  @UseGuards(BearerTokenGuard)
  @OAuthRoute({ challenge: 'Bearer', otherMethods: 'the userinfo endpoint accepts GET and POST only' })
  @NoStore()
  get(@CurrentAccessToken() token: ValidatedAccessToken): Promise<UserInfoClaims> {
    return this.userInfoService.userInfo(token);
  }

  @Post()
  @HttpCode(200)
  @UseGuards(BearerTokenGuard)
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  post(@CurrentAccessToken() token: ValidatedAccessToken): Promise<UserInfoClaims> {
    return this.userInfoService.userInfo(token);
  }
}

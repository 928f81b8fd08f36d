import { Controller, Delete, Get, Header, HttpCode, Options, Patch, Post, Put, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { OAuthError } from '../../protocol/oauth-error';
import type { UserInfoClaims } from './claims.mapper';
import { BearerTokenGuard, CurrentAccessToken } from './bearer-token.guard';
import { UserInfoService } from './userinfo.service';

// Fastify answers HEAD through the GET route.
const ALLOWED_METHODS = 'GET, HEAD, POST';

/** OIDC Core §5.3: GET or POST, with the token as RFC 6750 §2.1 or §2.2 say. */
@Controller('connect/userinfo')
export class UserInfoController {
  constructor(private readonly userInfoService: UserInfoService) {}

  @Get()
  @UseGuards(BearerTokenGuard)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  get(@CurrentAccessToken() token: ValidatedAccessToken): Promise<UserInfoClaims> {
    return this.userInfoService.userInfo(token);
  }

  @Post()
  @HttpCode(200)
  @UseGuards(BearerTokenGuard)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  post(@CurrentAccessToken() token: ValidatedAccessToken): Promise<UserInfoClaims> {
    return this.userInfoService.userInfo(token);
  }

  @Put()
  put(@Res({ passthrough: true }) reply: FastifyReply): never {
    return methodNotAllowed(reply);
  }

  @Patch()
  patch(@Res({ passthrough: true }) reply: FastifyReply): never {
    return methodNotAllowed(reply);
  }

  @Delete()
  delete(@Res({ passthrough: true }) reply: FastifyReply): never {
    return methodNotAllowed(reply);
  }

  @Options()
  options(@Res({ passthrough: true }) reply: FastifyReply): never {
    return methodNotAllowed(reply);
  }
}

/** RFC 9110 §15.5.6: a 405 names the methods the resource does support. */
function methodNotAllowed(reply: FastifyReply): never {
  reply.header('Allow', ALLOWED_METHODS);
  throw OAuthError.invalidRequest('the userinfo endpoint accepts GET and POST only', { status: 405 });
}

import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { AccessTokenValidator } from '../../tokens/access-token/access-token.validator';
import { extractBearerToken } from '../../protocol/bearer-token';
import { OAuthError } from '../../protocol/oauth-error';

type BearerAuthenticatedRequest = FastifyRequest & { accessToken?: ValidatedAccessToken };

/** Finds the request's bearer token (RFC 6750 §2), validates it (docs/tokens.md#validation) and attaches it. */
@Injectable()
export class BearerTokenGuard implements CanActivate {
  constructor(private readonly accessTokens: AccessTokenValidator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<BearerAuthenticatedRequest>();
    const token = extractBearerToken(request);
    if (token === undefined) throw OAuthError.missingBearerToken();
    // The route's OAuthRoute({ challenge: 'Bearer' }) adds the challenge to whatever is refused (RFC 6750 §3).
    request.accessToken = await this.accessTokens.validate(token);
    return true;
  }
}

/** The access token that `BearerTokenGuard` validated. */
export const CurrentAccessToken = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<BearerAuthenticatedRequest>().accessToken,
);

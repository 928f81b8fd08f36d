import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { ResourceTokenAuthenticator } from './resource-token.authenticator';

type BearerAuthenticatedRequest = FastifyRequest & { accessToken?: ValidatedAccessToken };

/** Finds the request's access token (RFC 6750 §2, RFC 9449 §7), validates it (docs/tokens.md#validation) and attaches it. */
@Injectable()
export class BearerTokenGuard implements CanActivate {
  constructor(private readonly authenticator: ResourceTokenAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<BearerAuthenticatedRequest>();
    // The route's path under the issuer is the `htu` a DPoP proof names.
    request.accessToken = await this.authenticator.authenticate(request, request.routeOptions.url ?? request.url.split('?', 1)[0]);
    return true;
  }
}

/** The access token that `BearerTokenGuard` validated. */
export const CurrentAccessToken = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<BearerAuthenticatedRequest>().accessToken,
);

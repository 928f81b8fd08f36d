import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { ClientAuthenticatedRequest } from '../../identity/client-auth/client-auth.guard';
import { OAuthError } from '../../protocol/oauth-error';

/**
 * After `ClientAuthGuard`, and before the parameters are read: a public client proves nothing, so it
 * may not learn about tokens (docs/browser-sign-in.md#clients).
 */
@Injectable()
export class ConfidentialClientGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { authenticatedClient } = context.switchToHttp().getRequest<ClientAuthenticatedRequest>();
    if (authenticatedClient?.method === 'none') throw OAuthError.invalidClient('a public client may not use introspection');
    return true;
  }
}

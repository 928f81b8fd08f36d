import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient, ClientAuthMethodName } from '../clients/client';
import { OAuthError } from '../../protocol/oauth-error';
import { clientAuthFailed } from './client-auth-failure';
import { CLIENT_AUTH_METHODS, MAX_CLIENT_ID_LENGTH, type ClientAuthMethod, type ClientAuthRequest } from './client-auth-method';

/** A request's credentials, recognised but not yet verified. */
export interface ClientAuthAttempt {
  /** The method the request uses; undefined when it carries no credentials at all. */
  readonly method: ClientAuthMethodName | undefined;
  /** The client it claims to be, bounded in length, before verification (for throttling and audit). */
  readonly claimedClientId: string | undefined;
  verify(): Promise<AuthenticatedClient>;
}

/**
 * Client authentication for every endpoint that needs it (token, introspection, revocation): picks
 * the one method whose credentials the request carries. Two at once is `invalid_request` (RFC 6749
 * §2.3: a client must not use more than one method per request); none is `invalid_client`.
 */
@Injectable()
export class ClientAuthenticator {
  constructor(@Inject(CLIENT_AUTH_METHODS) private readonly methods: readonly ClientAuthMethod[]) {}

  identify(request: ClientAuthRequest): ClientAuthAttempt {
    const carried = this.methods.filter((method) => method.carries(request));
    if (carried.length > 1) throw OAuthError.invalidRequest('more than one client authentication method was used');
    const [method] = carried;
    if (!method) {
      return {
        method: undefined,
        claimedClientId: undefined,
        // RFC 7235 §3.1: a 401 names a scheme the client can use.
        verify: () => Promise.reject(clientAuthFailed('client authentication is required', true)),
      };
    }
    return {
      method: method.methodName(request),
      claimedClientId: method.claimedClientId(request)?.slice(0, MAX_CLIENT_ID_LENGTH),
      verify: () => method.authenticate(request),
    };
  }

  /** Identifies and verifies in one step. */
  authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    return this.identify(request).verify();
  }
}

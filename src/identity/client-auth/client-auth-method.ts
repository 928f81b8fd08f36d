import type { AuthenticatedClient, ClientAuthMethodName } from '../clients/client';
import type { FormBody } from '../../protocol/form';

/** The endpoints that authenticate clients; an assertion may name the one it is sent to as `aud`. */
export type ClientAuthEndpoint = 'token' | 'introspection' | 'revocation' | 'pushed_authorization' | 'device_authorization';

/** What a request carries that may authenticate a client. */
export interface ClientAuthRequest {
  readonly authorization: string | undefined;
  readonly body: FormBody;
  readonly endpoint: ClientAuthEndpoint;
}

/**
 * One way for a client to authenticate (RFC 6749 §2.3, RFC 7523 §2.2, OpenID Connect Core §9).
 * `ClientAuthenticator` picks the one whose credentials the request carries.
 */
export interface ClientAuthMethod {
  /** The method's registered name, as metrics and audit events show it. */
  methodName(request: ClientAuthRequest): ClientAuthMethodName;
  carries(request: ClientAuthRequest): boolean;
  /** The client the request claims to be, before anything is verified (for throttling). */
  claimedClientId(request: ClientAuthRequest): string | undefined;
  /** The verified client; throws `invalid_client` (or `invalid_request` for a malformed request). */
  authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient>;
}

/** DI token of every method, in the order they are asked. */
export const CLIENT_AUTH_METHODS = Symbol('CLIENT_AUTH_METHODS');

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** draft-ietf-oauth-spiffe-client-auth. */
export const JWT_SPIFFE_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

export const MAX_CLIENT_ID_LENGTH = 200;

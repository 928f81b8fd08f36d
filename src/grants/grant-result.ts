import type { ActorClaim } from '../tokens/access-token/access-token';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import type { GrantContinuation } from './grant-continuation';

/**
 * A grant's answer: a success or an error, nothing else (docs/grants.md#the-grant-result). The token
 * endpoint checks it at run time; any other value is answered `500 server_error`.
 */
export type GrantResult = GrantSuccess | GrantError;

/** The request is refused with a token-endpoint error code (RFC 6749 §5.2, RFC 8693, RFC 8707, RFC 8628, RFC 9449). */
export interface GrantError {
  readonly kind: 'error';
  readonly error: OAuthErrorCode;
  /** At most 1,000 characters. */
  readonly description?: string;
}

/** An access token for `subject` (a user of the directory), or for the client itself when there is none. */
export interface GrantSuccess {
  readonly kind?: 'success';
  readonly subject?: string;
  /** Within the requested scopes (all of them by default), which are within the client's. */
  readonly scopes?: readonly string[];
  /** The token's `amr`; `[grant_type]` by default (docs/tokens.md#access-tokens). */
  readonly authenticationMethods?: readonly string[];
  /** Claims added to the access token; they never replace the registered ones, and a refresh keeps them. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Extra members of the token response; they never replace the standard ones. */
  readonly responseParameters?: Readonly<Record<string, unknown>>;
  /** RFC 8707: the token's `aud`, within the requested resource URIs; by default the API resources of its scopes. */
  readonly audience?: readonly string[];
  /** A grant that delegates a subject token: build it with `buildDelegation` (docs/extending.md#delegating-a-users-token). */
  readonly delegation?: Delegation;
  /**
   * A grant with `signsIn`: when the user authenticated (epoch seconds), the `auth_time` of the access
   * and ID tokens; the time of the request by default.
   */
  readonly authTime?: number;
  /** RFC 8693 §2.2.1 `issued_token_type`; token exchange sets it to the requested type when a handler does not. */
  readonly issuedTokenType?: string;
  /** Handed out only by Tollgate's own services (a code, a device code, a refresh): never built by a grant. */
  readonly continuation?: GrantContinuation;
}

/** A token issued for the subject of another token, to `actor`. */
export interface Delegation {
  /** RFC 8693 §4.1 `act`: the acting client, nesting the subject token's own `act`. */
  readonly actor: ActorClaim;
  /** The subject token's `auth_time`, kept. */
  readonly authTime?: number;
  /** The subject token's `acr`, kept (docs/passkeys.md#authentication-context). */
  readonly acr?: string;
  /** Epoch seconds the token must not outlive: the subject token's `exp`. */
  readonly expiresAtMost: number;
  /** The trusted issuer of an external subject token, for the audit log (docs/delegation.md). */
  readonly subjectIssuer?: string;
  /** RFC 8693 §2.2.1 `issued_token_type` (token exchange). */
  readonly issuedTokenType?: string;
}

/** A refusal as a result rather than a thrown `OAuthError`; both are answered alike. */
export function grantError(error: OAuthErrorCode, description?: string): GrantError {
  return { kind: 'error', error, ...(description === undefined ? {} : { description }) };
}

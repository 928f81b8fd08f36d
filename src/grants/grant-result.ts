import type { ActorClaim } from '../tokens/access-token/access-token';
import type { AuthorizationCode } from '../tokens/authorization/authorization-code';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import type { RefreshToken } from '../tokens/refresh-tokens/refresh-token';

/**
 * A grant's answer, one of a few kinds; the token endpoint's response generator turns any of them
 * into the token response (docs/grants.md#the-grant-result). Most grants return a `GrantSuccess`.
 */
export type GrantResult = GrantError | GrantSuccess | CodeRedemption | DeviceCodeRedemption | RefreshRotation | SelfIssuedResult;

/** The request is refused: RFC 6749 §5.2 (or RFC 8693 §2.2.2) error code and description. */
export interface GrantError {
  readonly kind: 'error';
  readonly error: OAuthErrorCode;
  readonly description?: string;
}

/** An access token for `subject` (a user of the directory), or for the client itself when there is none. */
export interface GrantSuccess {
  readonly kind?: 'access_token';
  readonly subject?: string;
  /** Within the requested scopes (all of them by default), which are within the client's. */
  readonly scopes?: readonly string[];
  /** `amr` of user tokens; `[grant_type]` by default (docs/tokens.md#access-tokens). */
  readonly authenticationMethods?: readonly string[];
  /** Claims added to the access token; they never replace the registered ones. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Extra members of the token response; they never replace the standard ones. */
  readonly responseParameters?: Readonly<Record<string, unknown>>;
  /** RFC 8707: the token's `aud`, within the requested resource URIs; by default the API resources of its scopes. */
  readonly audience?: readonly string[];
  /** Set by the grants that delegate a subject token (docs/tokens.md#delegated-tokens). */
  readonly delegation?: Delegation;
}

/** A token issued for the subject of another token, to `actor`. */
export interface Delegation {
  readonly actor: ActorClaim;
  /** The subject token's `auth_time`, kept. */
  readonly authTime?: number;
  /** The subject token's `acr`, kept (docs/passkeys.md#authentication-context). */
  readonly acr?: string;
  /** Epoch seconds the token must not outlive: the subject token's `exp`. */
  readonly expiresAtMost: number;
  /** The external issuer of the subject token, for the audit log (docs/delegation.md). */
  readonly subjectIssuer?: string;
  /** RFC 8693 §2.2.1 `issued_token_type` (token exchange). */
  readonly issuedTokenType?: string;
}

/** A redeemed authorization code: its sign-in's tokens, bound to the code (RFC 6749 §4.1.2). */
export interface CodeRedemption {
  readonly kind: 'code_redemption';
  readonly code: AuthorizationCode;
  /** RFC 8707 §2.2: the access token's scopes and `aud` when `resource` narrowed the code's; by default the code's. */
  readonly scopes?: readonly string[];
  readonly audience?: readonly string[];
}

/** An approved device authorization (RFC 8628 §3.5): the tokens of the sign-in that approved it. */
export interface DeviceCodeRedemption {
  readonly kind: 'device_code_redemption';
  readonly subject: string;
  /** The scopes of the device authorization request, within the client's. */
  readonly scopes: readonly string[];
  /** Epoch seconds. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  /** The approving browser session: the ID token's `sid`. */
  readonly sessionId: string;
}

/** A refresh (RFC 6749 §6): `presented` is rotated, its successor issued with `scopes`. */
export interface RefreshRotation {
  readonly kind: 'refresh_rotation';
  readonly presented: RefreshToken;
  readonly scopes: readonly string[];
  /** RFC 8707: the access token's `aud`; by default the API resources of its scopes. */
  readonly audience?: readonly string[];
}

/** A token the grant signed itself instead of an access token (e.g. a transaction token). */
export interface SelfIssuedResult {
  readonly kind: 'self_issued';
  readonly subject: string;
  readonly token: SelfIssuedToken;
  /** RFC 8693 §2.2.1 `issued_token_type`. */
  readonly issuedTokenType: string;
  readonly subjectIssuer?: string;
}

export interface SelfIssuedToken {
  readonly token: string;
  /** RFC 8693 §2.2.1: `N_A` for a token that is not an access token. */
  readonly tokenType: 'N_A';
  readonly expiresIn: number;
  readonly scopes: readonly string[];
  /** The transaction it belongs to, for the audit log. */
  readonly transactionId?: string;
}

/** A refusal as a result rather than a thrown `OAuthError`; both are answered alike. */
export function grantError(error: OAuthErrorCode, description?: string): GrantError {
  return { kind: 'error', error, ...(description === undefined ? {} : { description }) };
}

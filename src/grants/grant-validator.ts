import type { ActorClaim } from '../access-token/access-token';
import type { IssuedAccessToken } from '../access-token/access-token.issuer';
import type { Client } from '../clients/client';
import type { OAuthErrorCode } from '../oauth/oauth-error';
import type { RequestedScopes } from '../oauth/scope';
import type { ResourceCatalog } from '../resources/resource-catalog';
import type { GrantParametersClass } from './grant-parameters';

/** What a grant validator is given besides its parameters. */
export interface GrantContext {
  readonly grantType: string;
  readonly client: Client;
  /** Known to the catalog and allowed for the client; defaulted when `scope` was omitted. */
  readonly scopes: RequestedScopes;
  readonly resources: ResourceCatalog;
  /** The client's address (the socket peer, or behind a trusted proxy the forwarded one): for per-address throttling. */
  readonly clientAddress: string;
  /** When the token endpoint began serving the request (epoch ms). */
  readonly receivedAt?: number;
}

/** A token a grant signed itself instead of an access token (e.g. a transaction token). */
export interface SelfIssuedToken {
  readonly token: string;
  /** RFC 8693 §2.2.1: `N_A` for a token that is not an access token. */
  readonly tokenType: 'N_A';
  readonly expiresIn: number;
  readonly scopes: readonly string[];
  /** The transaction it belongs to, for the audit log. */
  readonly transactionId?: string;
}

/** What a successful grant issues a token for. */
export interface GrantSuccess {
  /** The final scopes of the token: those of `context.scopes` that this grant can carry. */
  readonly scopes: readonly string[];
  /** The user the token is for; absent for tokens that represent only the client. */
  readonly subject?: string;
  /** `amr` of user tokens; defaults to `[grantType]` (docs/tokens.md#access-tokens). */
  readonly authenticationMethods?: readonly string[];
  /** `auth_time` (epoch seconds) of user tokens; defaults to now. */
  readonly authTime?: number;
  readonly actor?: ActorClaim;
  /** Claims added to the access token; they cannot replace the registered ones. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Epoch seconds the token must not outlive. */
  readonly expiresAtMost?: number;
  /** Extra members of the token response; they cannot replace the standard ones. */
  readonly responseParameters?: Readonly<Record<string, unknown>>;
  /** Issued by the grant itself: no access or refresh token is issued then. */
  readonly issuedToken?: SelfIssuedToken;
  /** The external issuer of the subject token, for the audit log (docs/delegation.md). */
  readonly subjectIssuer?: string;
  /** RFC 8693 §2.2.1 `issued_token_type` of the response (token exchange). */
  readonly issuedTokenType?: string;
  /**
   * Set by grants that carry a browser sign-in (authorization code, and refreshes of its tokens):
   * an ID token is issued with the access token when `openid` is granted (OpenID Connect Core §3.1.3.3).
   */
  readonly idToken?: IdTokenContext;
  /** Called once the access token is issued, e.g. to bind it to the code it came from. */
  readonly onIssued?: (accessToken: IssuedAccessToken) => Promise<void>;
}

export interface IdTokenContext {
  /** `sid`: the sign-in session. */
  readonly sessionId?: string;
  /** `nonce` exactly as the authorization request sent it. */
  readonly nonce?: string;
}

/**
 * The extension point of the token endpoint: one `@Injectable()` class per `grant_type`, its
 * dependencies taken through its constructor. `parameters` is the DTO class of the request
 * parameters the grant reads besides `grant_type` and `scope` (class-validator decorators: required
 * members, lengths; an `@IsArray()` member may repeat); other parameters are dropped. A DTO that
 * fails validation is `parameterError` (`invalid_request` by default) unless the failed constraint
 * names its own code in `context: { error }`.
 * `validate` gets the DTO already validated and returns a success or throws an `OAuthError`
 * (`invalid_grant`, `invalid_request`, `invalid_scope`, …). Client authentication, the client's
 * permission to use the grant and the scope's syntax and allowance are checked before it runs; after
 * it, that the success's `subject`, if any, is a user of the directory who is enabled (docs/users.md).
 * Register the class with `GrantsModule.register({ validators, imports })`; the built-in ones are
 * listed in `grants/built-in-grants.ts`.
 */
export interface GrantValidator<P extends object = object> {
  readonly grantType: string;
  readonly parameters: GrantParametersClass<P>;
  readonly parameterError?: OAuthErrorCode;
  /** The error when the success names a `subject` that is no enabled user of the directory; `invalid_grant` by default. */
  readonly subjectError?: OAuthErrorCode;
  validate(parameters: P, context: GrantContext): Promise<GrantSuccess>;
}

/** A grant validator class, built by Nest from its constructor's parameter types. */
export type GrantValidatorClass = new (...dependencies: never[]) => GrantValidator;

/** The multi-injection token: every registered validator, as an array. */
export const GRANT_VALIDATORS = Symbol('GRANT_VALIDATORS');

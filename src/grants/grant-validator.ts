import type { ActorClaim } from '../access-token/access-token';
import type { Client } from '../clients/client';
import type { RequestParameters } from '../oauth/form';
import type { RequestedScopes } from '../oauth/scope';
import type { RefreshTokenFamily } from '../refresh-tokens/refresh-token';
import type { ResourceCatalog } from '../resources/resource-catalog';

/** What a grant validator is given: only the parameters it declared, already checked for repetition. */
export interface GrantContext {
  readonly grantType: string;
  readonly client: Client;
  readonly parameters: RequestParameters;
  /** Known to the catalog and allowed for the client; defaulted when `scope` was omitted. */
  readonly scopes: RequestedScopes;
  readonly resources: ResourceCatalog;
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
  /** RFC 8693 §2.2.1 `issued_token_type` of the response (token exchange). */
  readonly issuedTokenType?: string;
  /**
   * Set by the `refresh_token` grant only: the rotated refresh token joins this family, keeping its
   * scope and absolute expiry (RFC 6749 §6). Other grants get a new family when they qualify.
   */
  readonly refreshTokenFamily?: RefreshTokenFamily;
}

/**
 * The extension point of the token endpoint: one class per `grant_type`.
 * Validate the request and return a success, or throw an `OAuthError` (`invalid_grant`,
 * `invalid_request`, `invalid_scope`, …). Client authentication, the client's permission to use
 * the grant and the scope's syntax and allowance are checked before `validate` is called.
 * Register the class in `GRANT_VALIDATOR_CLASSES` (app.module.ts); list its constructor
 * dependencies, as DI tokens, in a static `inject` array.
 */
export interface GrantValidator {
  readonly grantType: string;
  /** Request parameters the grant reads, besides `grant_type` and `scope`; others are dropped. */
  readonly parameters: ReadonlySet<string>;
  /** Parameters that may be given more than once (e.g. RFC 8693 `audience`, `resource`). */
  readonly repeatableParameters?: ReadonlySet<string>;
  validate(context: GrantContext): Promise<GrantSuccess>;
}

/** A grant validator class; `inject` names the DI tokens its constructor takes, in order. */
export interface GrantValidatorClass {
  new (...dependencies: never[]): GrantValidator;
  readonly inject?: readonly unknown[];
}

/** The multi-injection token: every registered validator, as an array. */
export const GRANT_VALIDATORS = Symbol('GRANT_VALIDATORS');

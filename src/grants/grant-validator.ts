import type { Client } from '../identity/clients/client';
import type { RequestParameters } from '../protocol/form';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';
import type { ApiResource } from '../identity/resources/resource';
import type { ResourceCatalog } from '../identity/resources/resource-catalog';
import type { GrantParametersClass } from '../protocol/grant-parameters';
import type { GrantResult } from './grant-result';

export type { Delegation, GrantError, GrantResult, GrantSuccess } from './grant-result';
export type { GrantContinuation } from './grant-continuation';
export { grantError } from './grant-result';

/** The validation context: what a grant validator is given besides its parameter DTO. */
export interface GrantContext {
  readonly grantType: string;
  /** The authenticated client, allowed this grant type. */
  readonly client: Client;
  /** Known to the catalog and allowed for the client; defaulted when `scope` was omitted. */
  readonly scopes: RequestedScopes;
  readonly resources: ResourceCatalog;
  /**
   * RFC 8707 `resource` (grants with `resourceIndicators`): the API resources named by their URIs,
   * each known and open to the client; empty when none was sent.
   */
  readonly resourceIndicators: readonly ApiResource[];
  /** The parameters the grant declared, by name, as sent (a repeatable one as a list). */
  readonly rawParameters: RequestParameters;
  /** The client's address (the socket peer, or behind a trusted proxy the forwarded one): for per-address throttling. */
  readonly clientAddress: string;
  /** When the token endpoint began serving the request (epoch ms). */
  readonly receivedAt: number;
  /**
   * RFC 9449: the key of the request's valid DPoP proof, by thumbprint; the access token issued is
   * bound to it (docs/dpop.md). Undefined when the request carried no proof.
   */
  readonly dpop?: { readonly jkt: string };
}

/**
 * The one way a grant reaches the token endpoint (docs/extending.md, docs/grants.md): one
 * `@Injectable()` class per `grant_type`, provided **and exported** by a Nest module given to
 * `TollgateModule.forRoot({ grants })` (or `createApp`'s `grantModules`, or `TOLLGATE_EXTENSIONS`);
 * the built-in grants are registered the same way. Its dependencies come through its constructor,
 * from its module's imports and Tollgate's exported token services (`SubjectTokenValidator`).
 *
 * `parameters` is the DTO class of the request parameters the grant reads besides `grant_type` and
 * `scope` (class-validator decorators; an `@IsArray()` member may repeat); other parameters are
 * dropped. A DTO that fails validation is `parameterError` (`invalid_request` by default) unless the
 * failed constraint names its own code in `context: { error }`.
 *
 * What the grant may be used for is declared here, each false when absent: `publicClients`,
 * `signsIn` (an ID token when `openid` is granted), `refreshTokens` (with `offline_access`),
 * `resourceIndicators` (RFC 8707 `resource`).
 *
 * `validate` gets the DTO already validated and returns a success or an error (`grantError(…)`,
 * or a thrown `OAuthError`: the same answer). The result is checked at run time: anything else, an
 * error code the token endpoint cannot answer, or a description over 1,000 characters is
 * `500 server_error`; so is anything else it throws; not settling within `GRANT_TIMEOUT_SECONDS` is
 * `503 temporarily_unavailable`. Then, whatever it returned: the scopes are within the requested
 * ones and the client's, the subject is a known, enabled user (docs/users.md), and its claims and
 * response parameters cannot replace the standard ones.
 */
export interface GrantValidator<P extends object = object> {
  readonly grantType: string;
  readonly parameters: GrantParametersClass<P>;
  readonly parameterError?: OAuthErrorCode;
  /** The error when the result names a subject that is no enabled user of the directory; `invalid_grant` by default. */
  readonly subjectError?: OAuthErrorCode;
  /** Public clients (`token_endpoint_auth_method: none`) may use it: only when PKCE, a user's approval or a bound token protects it. */
  readonly publicClients?: boolean;
  /** It signs a user in: with `openid` granted, an ID token comes with the access token (OpenID Connect Core §3.1.3.3). */
  readonly signsIn?: boolean;
  /** With `offline_access` granted to a user, a refresh token comes with the access token; its refreshes keep the claims and audience. */
  readonly refreshTokens?: boolean;
  /**
   * It reads RFC 8707 `resource` (docs/tokens.md#resource-indicators): the token endpoint accepts it
   * repeated, resolves it before the scope (`invalid_target`) into `context.resourceIndicators`, and
   * a success's `audience` must be within it.
   */
  readonly resourceIndicators?: boolean;
  validate(parameters: P, context: GrantContext): Promise<GrantResult>;
}

/** A grant validator class, built by Nest from its constructor's parameter types. */
export type GrantValidatorClass = new (...dependencies: never[]) => GrantValidator;

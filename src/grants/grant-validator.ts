import type { Client } from '../identity/clients/client';
import type { RequestParameters } from '../protocol/form';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';
import type { ApiResource } from '../identity/resources/resource';
import type { ResourceCatalog } from '../identity/resources/resource-catalog';
import type { GrantParametersClass } from '../protocol/grant-parameters';
import type { GrantResult } from './grant-result';

export type {
  CodeRedemption,
  Delegation,
  DeviceCodeRedemption,
  GrantError,
  GrantResult,
  GrantSuccess,
  RefreshRotation,
  SelfIssuedResult,
  SelfIssuedToken,
} from './grant-result';
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
 * The extension point of the token endpoint (docs/grants.md): one `@Injectable()` class per
 * `grant_type`, its dependencies taken through its constructor. `parameters` is the DTO class of the
 * request parameters the grant reads besides `grant_type` and `scope` (class-validator decorators:
 * required members, lengths; an `@IsArray()` member may repeat); other parameters are dropped. A DTO
 * that fails validation is `parameterError` (`invalid_request` by default) unless the failed
 * constraint names its own code in `context: { error }`.
 *
 * `validate` gets the DTO already validated and returns a `GrantResult`: a success, or an error
 * (`grantError(…)`, or a thrown `OAuthError`: the same answer). Anything else it throws is answered
 * `server_error` without detail. Before it runs: client authentication, the client's permission to
 * use the grant, the scope's syntax and allowance. After it, whatever it returned: the scopes are
 * within the requested ones and the client's, the subject is a known, enabled user (docs/users.md),
 * and its claims and response parameters cannot replace the standard ones.
 *
 * A Nest module provides the class and exports it; the application passes the module in `grants`
 * of `TollgateModule.forRoot(…)` or `grantModules` of `createApp`, or names its file in
 * `TOLLGATE_EXTENSIONS` (docs/extending.md).
 */
export interface GrantValidator<P extends object = object> {
  readonly grantType: string;
  readonly parameters: GrantParametersClass<P>;
  readonly parameterError?: OAuthErrorCode;
  /** The error when the result names a subject that is no enabled user of the directory; `invalid_grant` by default. */
  readonly subjectError?: OAuthErrorCode;
  /**
   * True when the grant reads RFC 8707 `resource` (docs/tokens.md#resource-indicators): the token
   * endpoint accepts it repeated, resolves it before the scope (`invalid_target`) into
   * `context.resourceIndicators`, and a success's `audience` must be within it.
   */
  readonly resourceIndicators?: boolean;
  validate(parameters: P, context: GrantContext): Promise<GrantResult>;
}

/** A grant validator class, built by Nest from its constructor's parameter types. */
export type GrantValidatorClass = new (...dependencies: never[]) => GrantValidator;

/** The multi-injection token: every registered validator, as an array. */
export const GRANT_VALIDATORS = Symbol('GRANT_VALIDATORS');

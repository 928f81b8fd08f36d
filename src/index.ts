// The public API of the `tollgate` package (package.json `exports`); nothing else is supported.
import 'reflect-metadata';

// Grant modules of this package (src/grants/cross-domain/) import from this file, and Tollgate's
// module imports them: everything they use is exported above TollgateModule, so that it is defined
// whichever file is loaded first.
export * from './grants/grant-validator';
export type { GrantParametersClass, ParameterConstraintContext } from './protocol/grant-parameters';
export type { GrantModule } from './grants/grant-modules';
// The token services a grant injects (docs/extending.md#token-services-for-your-grant).
export { SubjectTokenValidator, type SubjectToken, type SubjectTokenContext, type SubjectTokenOptions } from './tokens/subject-tokens/subject-token.validator';
export { buildDelegation, type DelegatedGrant } from './grants/delegation-builder';
export { ownIssuedToken, type OwnIssuedToken } from './grants/grant-continuation';
export type { TokenExchangeHandler, TokenExchangeHandlerClass } from './grants/token-exchange-handler';
export {
  ACCESS_TOKEN_TYPE,
  JWT_TOKEN_TYPE,
  TOKEN_EXCHANGE_GRANT_TYPE,
  TXN_TOKEN_TYPE,
  scopesForTargets,
  type TokenExchangeRequest,
} from './grants/token-exchange-request';
export type { ActorClaim } from './tokens/access-token/access-token';
export type { ResourceCatalog } from './identity/resources/resource-catalog';
export type { ApiResource } from './identity/resources/resource';
export type { Client } from './identity/clients/client';
export type { RequestedScopes } from './protocol/scope';
export { OAuthError, type OAuthErrorCode, type OAuthErrorOptions } from './protocol/oauth-error';
export { UserDirectory } from './identity/users/user-directory';
export type { User } from './identity/users/user';
export { AuditSink, type AuditEvent } from './platform/audit/audit-event';
export { ConfigError, loadConfig, type AppConfig } from './platform/config/app.config';
export type { TollgateMigration } from './platform/database/database.config';

/**
 * Token services for grants that take tokens across trust domains (docs/chaining.md; the worked
 * example is `src/grants/cross-domain/`).
 */
export { AuthorizationGrantIssuers, type AuthorizationGrantIssuer, type VerifiedJws } from './identity/trusted-issuers/authorization-grant-issuers';
export { PartnerAuthorizationServers } from './identity/partners/partner-authorization-servers';
export type { PartnerAuthorizationServer } from './identity/partners/partner-authorization-server';
export { AssertionReplayGuard } from './identity/client-auth/assertion-replay.guard';
export { IdTokenValidator, type ValidatedIdToken } from './tokens/id-token/id-token.validator';
export { TokenSigner, type JwtToSign, type SignedJwt } from './grants/token-signer';

export { TollgateModule, type TollgateExtensions, type TollgateModuleAsyncOptions, type TollgateModuleOptions } from './tollgate.module';
export { createApp } from './app.factory';
export type { AppOptions } from './app.factory';

// The public API of the `tollgate` package (package.json `exports`); nothing else is supported.
import 'reflect-metadata';

export { TollgateModule, type TollgateExtensions, type TollgateModuleAsyncOptions, type TollgateModuleOptions } from './tollgate.module';
export { createApp } from './app.factory';
export type { AppOptions } from './app.module';
export * from './grants/grant-validator';
export type { GrantParametersClass, ParameterConstraintContext } from './grants/grant-parameters';
export type { GrantModule } from './grants/grant-modules';
export type { Client } from './clients/client';
export type { RequestedScopes } from './oauth/scope';
export { OAuthError, type OAuthErrorCode, type OAuthErrorOptions } from './oauth/oauth-error';
export { UserDirectory } from './users/user-directory';
export type { User } from './users/user';
export { AuditSink, type AuditEvent } from './audit/audit-event';
export { ConfigError, loadConfig, type AppConfig } from './config/app.config';
export type { TollgateMigration } from './database/database.config';

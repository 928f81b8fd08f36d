import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../tokens/access-token/access-token.module';
import { AuthorizeModule } from '../tokens/authorization/authorize.module';
import { DeviceAuthorizationModule } from '../tokens/device-authorization/device-authorization.module';
import { RefreshTokensModule } from '../tokens/refresh-tokens/refresh-tokens.module';
import { SessionsModule } from '../identity/sessions/sessions.module';
import { SignInModule } from '../identity/sign-in/sign-in.module';
import { SubjectIssuersModule } from '../tokens/subject-tokens/subject-issuers.module';
import { TransactionTokensModule } from '../tokens/txn-tokens/txn-tokens.module';
import { AccessTokenExchangeHandler } from './access-token.exchange-handler';
import { AuthorizationCodeGrantValidator } from './authorization-code.grant-validator';
import { ClientCredentialsGrantValidator } from './client-credentials.grant-validator';
import { DelegationGrantValidator } from './delegation.grant-validator';
import { DeviceCodeGrantValidator } from './device-code.grant-validator';
import type { GrantModule } from './grant-modules';
import { PasswordGrantValidator } from './password.grant-validator';
import { RefreshTokenGrantValidator } from './refresh-token.grant-validator';
import { TokenExchangeGrantValidator } from './token-exchange.grant-validator';
import { TransactionTokenExchangeHandler } from './txn-token.exchange-handler';

// Each built-in grant is a grant module like an application's (docs/extending.md): it provides and
// exports its validator (or token-exchange handler), with the modules its constructor needs; the
// token services of GrantServicesModule come to it as to any grant module.

@Module({ providers: [ClientCredentialsGrantValidator], exports: [ClientCredentialsGrantValidator] })
export class ClientCredentialsGrantModule {}

@Module({ imports: [SignInModule], providers: [PasswordGrantValidator], exports: [PasswordGrantValidator] })
export class PasswordGrantModule {}

@Module({ providers: [DelegationGrantValidator], exports: [DelegationGrantValidator] })
export class DelegationGrantModule {}

@Module({ imports: [RefreshTokensModule], providers: [RefreshTokenGrantValidator], exports: [RefreshTokenGrantValidator] })
export class RefreshTokenGrantModule {}

@Module({
  imports: [AuthorizeModule, RefreshTokensModule, SessionsModule],
  providers: [AuthorizationCodeGrantValidator],
  exports: [AuthorizationCodeGrantValidator],
})
export class AuthorizationCodeGrantModule {}

@Module({ imports: [DeviceAuthorizationModule], providers: [DeviceCodeGrantValidator], exports: [DeviceCodeGrantValidator] })
export class DeviceCodeGrantModule {}

/** RFC 8693 token exchange and its access-token handler; other handlers come from any grant module. */
@Module({
  imports: [AccessTokenModule],
  providers: [TokenExchangeGrantValidator, AccessTokenExchangeHandler],
  exports: [TokenExchangeGrantValidator, AccessTokenExchangeHandler],
})
export class TokenExchangeGrantModule {}

/** Transaction tokens through token exchange (docs/transaction-tokens.md): a handler added as any module adds one. */
@Module({
  imports: [AccessTokenModule, SubjectIssuersModule, TransactionTokensModule],
  providers: [TransactionTokenExchangeHandler],
  exports: [TransactionTokenExchangeHandler],
})
export class TransactionTokenExchangeModule {}

/** The grants the token endpoint serves out of the box, registered exactly as an application's grant modules are. */
export const BUILT_IN_GRANT_MODULES: readonly GrantModule[] = [
  AuthorizationCodeGrantModule,
  ClientCredentialsGrantModule,
  PasswordGrantModule,
  DelegationGrantModule,
  RefreshTokenGrantModule,
  TokenExchangeGrantModule,
  TransactionTokenExchangeModule,
  DeviceCodeGrantModule,
];

/**
 * The built-in grant modules, and those written on the package's public API as an outside team
 * would (src/grants/cross-domain/, docs/extending.md): these import `src/index.ts`, which imports
 * this file, so they are loaded when Tollgate's module is built, after that API is defined.
 */
export function builtInGrantModules(): GrantModule[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the public API it imports
  const crossDomain = require('./cross-domain/cross-domain-grants.module') as { CrossDomainGrantsModule: GrantModule };
  return [...BUILT_IN_GRANT_MODULES, crossDomain.CrossDomainGrantsModule];
}

import { AccessTokenModule } from '../tokens/access-token/access-token.module';
import { AuditModule } from '../platform/audit/audit.module';
import { AuthorizeModule } from '../tokens/authorization/authorize.module';
import { DeviceAuthorizationModule } from '../tokens/device-authorization/device-authorization.module';
import { RefreshTokensModule } from '../tokens/refresh-tokens/refresh-tokens.module';
import { SignInModule } from '../identity/sign-in/sign-in.module';
import { UsersModule } from '../identity/users/users.module';
import { AuthorizationCodeGrantValidator } from './authorization-code.grant-validator';
import { ClientCredentialsGrantValidator } from './client-credentials.grant-validator';
import { DelegationGrantValidator } from './delegation.grant-validator';
import { DeviceCodeGrantValidator } from './device-code.grant-validator';
import type { GrantRegistration } from './grants.module';
import { PasswordGrantValidator } from './password.grant-validator';
import { RefreshTokenGrantValidator } from './refresh-token.grant-validator';
import { TokenExchangeGrantValidator } from './token-exchange.grant-validator';
import { TokenExchangeModule } from './token-exchange.module';

/** The grants the token endpoint serves out of the box. To add one, list its validator and the modules it needs. */
export const BUILT_IN_GRANTS: GrantRegistration = {
  validators: [
    AuthorizationCodeGrantValidator,
    ClientCredentialsGrantValidator,
    PasswordGrantValidator,
    DelegationGrantValidator,
    RefreshTokenGrantValidator,
    TokenExchangeGrantValidator,
    DeviceCodeGrantValidator,
  ],
  imports: [AccessTokenModule, UsersModule, RefreshTokensModule, TokenExchangeModule, AuthorizeModule, AuditModule, SignInModule, DeviceAuthorizationModule],
};

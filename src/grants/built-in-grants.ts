import { AccessTokenModule } from '../access-token/access-token.module';
import { AuditModule } from '../audit/audit.module';
import { AuthorizeModule } from '../authorize/authorize.module';
import { DeviceAuthorizationModule } from '../device-authorization/device-authorization.module';
import { RefreshTokensModule } from '../refresh-tokens/refresh-tokens.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
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

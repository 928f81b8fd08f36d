import { Inject, Injectable } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AuditSink } from '../platform/audit/audit-event';
import { OAuthError } from '../protocol/oauth-error';
import { PasswordCheck } from '../identity/sign-in/password-check';
import type { ParameterConstraintContext } from '../protocol/grant-parameters';
import type { GrantContext, GrantResult, GrantValidator } from './grant-validator';

const MAX_CREDENTIAL_LENGTH = 1024;
const MAX_AUDITED_USERNAME_LENGTH = 256;
const INVALID_CREDENTIALS = 'the username or password is incorrect, or the user is disabled';
const REQUIRED = 'username and password are required';
// Too long for any real credential: the same answer as a wrong one, and nothing is hashed.
const tooLong = { message: INVALID_CREDENTIALS, context: { error: 'invalid_grant' } satisfies ParameterConstraintContext };

/** RFC 6749 §4.3.2. Class-validator runs a member's decorators bottom-up: presence first. */
export class PasswordParameters {
  @MaxLength(MAX_CREDENTIAL_LENGTH, tooLong)
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  username!: string;

  @MaxLength(MAX_CREDENTIAL_LENGTH, tooLong)
  @IsString({ message: REQUIRED })
  @IsDefined({ message: REQUIRED })
  password!: string;
}

/** RFC 6749 §4.3: the resource owner's username and password, within the sign-in back-off (docs/throttling.md). */
@Injectable()
export class PasswordGrantValidator implements GrantValidator<PasswordParameters> {
  readonly grantType = 'password';
  readonly parameters = PasswordParameters;
  readonly refreshTokens = true;

  constructor(
    @Inject(PasswordCheck) private readonly passwords: Pick<PasswordCheck, 'check'>,
    private readonly audit: AuditSink,
  ) {}

  async validate({ username, password }: PasswordParameters, { scopes, client, clientAddress }: GrantContext): Promise<GrantResult> {
    const refuse = (reason: 'invalid_credentials' | 'back_off') => {
      this.audit.emit({
        name: 'user.sign_in_failed',
        username: username.slice(0, MAX_AUDITED_USERNAME_LENGTH),
        clientId: client.clientId,
        address: clientAddress,
        reason,
      });
      // A back-off is answered exactly like a wrong password (RFC 6749 §5.2 invalid_grant): it tells nothing.
      return OAuthError.invalidGrant(INVALID_CREDENTIALS);
    };
    // No device cookies here: a password-grant client is not a browser that signed in on the login page.
    const { user, refusal } = await this.passwords.check({ username, password, address: clientAddress });
    if (refusal) throw refuse(refusal);
    return {
      subject: user.subjectId,
      scopes: scopes.names,
      authenticationMethods: ['pwd'],
    };
  }
}

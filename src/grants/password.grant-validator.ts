import { Inject, Injectable } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OAuthError } from '../oauth/oauth-error';
import { PasswordHasher } from '../users/password.hasher';
import { UserRepository } from '../users/user.repository';
import type { ParameterConstraintContext } from './grant-parameters';
import type { GrantContext, GrantSuccess, GrantValidator } from './grant-validator';

const MAX_CREDENTIAL_LENGTH = 1024;
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

/** RFC 6749 §4.3: the resource owner's username and password. */
@Injectable()
export class PasswordGrantValidator implements GrantValidator<PasswordParameters> {
  readonly grantType = 'password';
  readonly parameters = PasswordParameters;

  constructor(
    @Inject(UserRepository) private readonly users: Pick<UserRepository, 'findByUsername'>,
    private readonly passwords: PasswordHasher,
  ) {}

  async validate({ username, password }: PasswordParameters, { scopes }: GrantContext): Promise<GrantSuccess> {
    const user = await this.users.findByUsername(username);
    const passwordMatches = await this.passwords.verify(password, user?.passwordHash);
    if (!user || !passwordMatches || !user.enabled) throw OAuthError.invalidGrant(INVALID_CREDENTIALS);
    return {
      subject: user.subjectId,
      scopes: scopes.names,
      authenticationMethods: ['pwd'],
      authTime: Math.floor(Date.now() / 1000),
    };
  }
}

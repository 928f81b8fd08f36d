import { stringParameter } from '../oauth/form';
import { OAuthError } from '../oauth/oauth-error';
import { PasswordHasher } from '../users/password.hasher';
import { UserRepository } from '../users/user.repository';
import type { GrantContext, GrantSuccess, GrantValidator } from './grant-validator';

const MAX_CREDENTIAL_LENGTH = 1024;

/** RFC 6749 §4.3: the resource owner's username and password. */
export class PasswordGrantValidator implements GrantValidator {
  static readonly inject = [UserRepository, PasswordHasher];
  readonly grantType = 'password';
  readonly parameters: ReadonlySet<string> = new Set(['username', 'password']);

  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  async validate({ parameters, scopes }: GrantContext): Promise<GrantSuccess> {
    const username = stringParameter(parameters, 'username');
    const password = stringParameter(parameters, 'password');
    if (!username || password === undefined) throw OAuthError.invalidRequest('username and password are required');
    if (username.length > MAX_CREDENTIAL_LENGTH || password.length > MAX_CREDENTIAL_LENGTH) throw invalidCredentials();
    const user = await this.users.findByUsername(username);
    const passwordMatches = await this.passwords.verify(password, user?.passwordHash);
    if (!user || !passwordMatches || !user.enabled) throw invalidCredentials();
    return {
      subject: user.subjectId,
      scopes: scopes.names,
      authenticationMethods: ['pwd'],
      authTime: Math.floor(Date.now() / 1000),
    };
  }
}

function invalidCredentials(): OAuthError {
  return OAuthError.invalidGrant('the username or password is incorrect, or the user is disabled');
}

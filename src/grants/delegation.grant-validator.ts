import { AccessTokenValidator } from '../access-token/access-token.validator';
import { stringParameter } from '../oauth/form';
import { OAuthError } from '../oauth/oauth-error';
import type { GrantContext, GrantSuccess, GrantValidator } from './grant-validator';
import { delegateSubjectToken } from './subject-token-delegation';

/**
 * The `delegation` extension grant: an API exchanges the user's access token it received (`token`)
 * for one to call another API on the same user's behalf.
 */
export class DelegationGrantValidator implements GrantValidator {
  static readonly inject = [AccessTokenValidator];
  readonly grantType = 'delegation';
  readonly parameters: ReadonlySet<string> = new Set(['token']);

  constructor(private readonly accessTokens: AccessTokenValidator) {}

  async validate(context: GrantContext): Promise<GrantSuccess> {
    const token = stringParameter(context.parameters, 'token');
    if (!token) throw OAuthError.invalidGrant('token is required');
    const subjectToken = await this.accessTokens.validate(token).catch((error: unknown) => {
      // Only a rejected token is invalid_grant; an outage or fault keeps its own meaning (503/500).
      if (!(error instanceof OAuthError)) throw error;
      throw OAuthError.invalidGrant(`token is not a valid access token: ${error.description}`);
    });
    return delegateSubjectToken(subjectToken, context, (description) => OAuthError.invalidGrant(description));
  }
}

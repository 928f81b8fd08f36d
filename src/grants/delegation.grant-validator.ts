import { Inject, Injectable } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AccessTokenValidator, MAX_TOKEN_LENGTH } from '../tokens/access-token/access-token.validator';
import { OAuthError } from '../protocol/oauth-error';
import type { GrantContext, GrantResult, GrantValidator } from './grant-validator';
import { delegateSubjectToken } from './subject-token-delegation';

/** The access token to delegate; decorators run bottom-up, presence first. */
export class DelegationParameters {
  @MaxLength(MAX_TOKEN_LENGTH, { message: 'token is too long' })
  @IsString({ message: 'token is required' })
  @IsNotEmpty({ message: 'token is required' })
  token!: string;
}

/**
 * The `delegation` extension grant: an API exchanges the user's access token it received (`token`)
 * for one to call another API on the same user's behalf. `token` must be addressed to the client
 * (its `aud`, docs/tokens.md#addressed-to-a-client). Every problem with `token`, a missing one
 * included, is `invalid_grant`.
 */
@Injectable()
export class DelegationGrantValidator implements GrantValidator<DelegationParameters> {
  readonly grantType = 'delegation';
  readonly parameters = DelegationParameters;
  readonly parameterError = 'invalid_grant';

  constructor(@Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>) {}

  async validate({ token }: DelegationParameters, context: GrantContext): Promise<GrantResult> {
    const subjectToken = await this.accessTokens.validate(token).catch((error: unknown) => {
      // Only a rejected token is invalid_grant; an outage or fault keeps its own meaning (503/500).
      if (!(error instanceof OAuthError)) throw error;
      throw OAuthError.invalidGrant(`token is not a valid access token: ${error.description}`);
    });
    // The API that received the user's token is the one that may delegate it.
    if (!context.resources.isAddressedTo(subjectToken.audiences, context.client.clientId)) {
      throw OAuthError.invalidGrant('token is not addressed to this client (aud)');
    }
    return delegateSubjectToken(subjectToken, context, (description) => OAuthError.invalidGrant(description));
  }
}

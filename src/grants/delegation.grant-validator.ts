import { Inject, Injectable } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_TOKEN_LENGTH } from '../tokens/access-token/access-token.validator';
import { SubjectTokenValidator } from '../tokens/subject-tokens/subject-token.validator';
import { buildDelegation } from './delegation-builder';
import type { GrantResult } from './grant-result';
import type { GrantContext, GrantValidator } from './grant-validator';

/** The access token to delegate; decorators run bottom-up, presence first. */
export class DelegationParameters {
  @MaxLength(MAX_TOKEN_LENGTH, { message: 'token is too long' })
  @IsString({ message: 'token is required' })
  @IsNotEmpty({ message: 'token is required' })
  token!: string;
}

/**
 * The `delegation` extension grant: an API exchanges the user's access token it received (`token`)
 * for one to call another API on the same user's behalf. Written as any grant module's grant is
 * (docs/extending.md#delegating-a-users-token): `SubjectTokenValidator` judges `token` (addressed to
 * the client, docs/tokens.md#addressed-to-a-client), `buildDelegation` makes the result. Every
 * problem with `token`, a missing one included, is `invalid_grant`.
 */
@Injectable()
export class DelegationGrantValidator implements GrantValidator<DelegationParameters> {
  readonly grantType = 'delegation';
  readonly parameters = DelegationParameters;
  readonly parameterError = 'invalid_grant';

  constructor(@Inject(SubjectTokenValidator) private readonly subjectTokens: Pick<SubjectTokenValidator, 'validate'>) {}

  async validate({ token }: DelegationParameters, context: GrantContext): Promise<GrantResult> {
    return buildDelegation(await this.subjectTokens.validate(token, context), context);
  }
}

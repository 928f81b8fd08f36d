import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_BODY_BYTES } from './form';

/**
 * The `token` and `token_type_hint` of RFC 7662 §2.1 and RFC 7009 §2.1 requests; decorators run
 * bottom-up, presence first. `token` may be as long as the body: a token too long to be ours is
 * answered as unknown (`{"active": false}`, RFC 7662 §2.2; 200, RFC 7009 §2.2), not refused.
 */
export class TokenParameters {
  @MaxLength(MAX_BODY_BYTES)
  @IsString({ message: 'token is required' })
  @IsNotEmpty({ message: 'token is required' })
  token!: string;

  /** Only a hint: the token is looked up among every type either way. */
  @IsString()
  @IsOptional()
  token_type_hint?: string;
}

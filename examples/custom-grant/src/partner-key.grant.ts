import { Injectable, Module } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { createHash } from 'node:crypto';
import { OAuthError, type GrantContext, type GrantSuccess, type GrantValidator } from 'tollgate';

export const PARTNER_KEY_GRANT = 'urn:example:params:oauth:grant-type:partner-api-key';

/** The grant's request parameters besides `grant_type` and `scope`. */
class PartnerKeyParameters {
  @IsString({ message: 'api_key is required' })
  @Length(20, 200, { message: 'api_key is required' })
  api_key!: string;
}

/**
 * The partners' API keys, each acting for one user. Only SHA-256 digests are kept (`PARTNER_KEYS`:
 * a JSON object from the hex digest of a key to the user's `sub`).
 */
export class PartnerKeys {
  private readonly subjectByDigest = new Map<string, string>(Object.entries(JSON.parse(process.env.PARTNER_KEYS ?? '{}') as Record<string, string>));

  /** A lookup by the key's digest: what is compared is a hash, so timing tells nothing about keys. */
  subjectOf(apiKey: string): string | undefined {
    return this.subjectByDigest.get(createHash('sha256').update(apiKey).digest('hex'));
  }
}

/** A partner exchanges the API key it holds for a user's access token. */
@Injectable()
export class PartnerKeyGrantValidator implements GrantValidator<PartnerKeyParameters> {
  readonly grantType = PARTNER_KEY_GRANT;
  readonly parameters = PartnerKeyParameters;

  constructor(private readonly keys: PartnerKeys) {}

  async validate({ api_key }: PartnerKeyParameters, { scopes }: GrantContext): Promise<GrantSuccess> {
    const subject = this.keys.subjectOf(api_key);
    if (subject === undefined) throw OAuthError.invalidGrant('unknown API key');
    return { subject, scopes: scopes.names, claims: { partner_key: true } };
  }
}

/** Provides the grant with what it needs, and exports it: Tollgate serves every grant validator a grant module exports. */
@Module({ providers: [PartnerKeys, PartnerKeyGrantValidator], exports: [PartnerKeyGrantValidator] })
export class PartnerKeyModule {}

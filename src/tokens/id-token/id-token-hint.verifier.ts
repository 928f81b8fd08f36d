import { Inject, Injectable } from '@nestjs/common';
import { OwnTokenVerifier, type OwnTokenKind } from '../access-token/own-token.verifier';
import { OAuthError } from '../../protocol/oauth-error';

/** What a logout learns from an `id_token_hint`. */
export interface IdTokenHint {
  /** The client the ID token was issued to (`aud`). */
  readonly clientId: string;
  readonly subject: string;
  readonly sessionId?: string;
}

// An expired ID token is still a good hint (OpenID Connect RP-Initiated Logout 1.0 §2).
const ID_TOKEN_HINT: OwnTokenKind = { types: new Set(['jwt']), wrongType: 'the token is not an ID token (typ)', ignoreExpiration: true };

/**
 * Verifies an ID token of ours presented as `id_token_hint` (OpenID Connect RP-Initiated Logout 1.0
 * §2), like every token of ours (`OwnTokenVerifier`): our key, our issuer, `typ: JWT`.
 */
@Injectable()
export class IdTokenHintVerifier {
  constructor(@Inject(OwnTokenVerifier) private readonly verifier: Pick<OwnTokenVerifier, 'verify'>) {}

  /** The hint's content, or undefined when it is not a valid ID token of ours. */
  async verify(token: string): Promise<IdTokenHint | undefined> {
    const verified = await this.verifier.verify(token, ID_TOKEN_HINT).catch((error: unknown) => {
      if (error instanceof OAuthError) return undefined;
      throw error;
    });
    if (!verified) return undefined;
    const { aud, sub, sid } = verified.claims;
    if (typeof aud !== 'string' || typeof sub !== 'string') return undefined;
    return { clientId: aud, subject: sub, sessionId: typeof sid === 'string' ? sid : undefined };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { OwnTokenVerifier, type OwnTokenKind } from '../access-token/own-token.verifier';
import { OAuthError } from '../../protocol/oauth-error';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';

/** An ID token of ours, verified and issued to the client that presents it. */
export interface ValidatedIdToken {
  readonly subject: string;
  /** The client it was issued to (`aud`). */
  readonly clientId: string;
  /** Epoch seconds. */
  readonly authTime?: number;
  readonly expiresAt: number;
  readonly acr?: string;
  readonly sessionId?: string;
}

const ID_TOKEN: OwnTokenKind = { types: new Set(['jwt']), wrongType: 'the token is not an ID token (typ)' };

/**
 * Validates an ID token of this issuer presented by the client it was issued to, e.g. as an RFC 8693
 * subject token (`urn:ietf:params:oauth:token-type:id_token`, docs/chaining.md): our key and `alg`,
 * `typ: JWT`, `iss`, `exp` and `nbf` (60 s skew), `aud` the client's id as its sole value and `azp`,
 * when present, the same; when it names a session (`sid`), that session has not ended (a logout
 * ends what its ID tokens may still be exchanged for). A token service for grants; rejections are
 * `OAuthError` `invalid_grant`.
 */
@Injectable()
export class IdTokenValidator {
  constructor(
    @Inject(OwnTokenVerifier) private readonly verifier: Pick<OwnTokenVerifier, 'verify'>,
    @Inject(SignInSessionService) private readonly sessions: Pick<SignInSessionService, 'isActive'>,
  ) {}

  async validate(token: string, clientId: string): Promise<ValidatedIdToken> {
    const { claims } = await this.verifier.verify(token, ID_TOKEN).catch((error: unknown) => {
      if (error instanceof OAuthError) throw OAuthError.invalidGrant(error.description ?? 'the ID token is not valid');
      throw error;
    });
    const { sub, aud, azp, exp, auth_time: authTime, acr, sid } = claims;
    const audience = Array.isArray(aud) && aud.length === 1 ? (aud[0] as unknown) : aud;
    if (typeof sub !== 'string' || typeof exp !== 'number' || typeof audience !== 'string') throw OAuthError.invalidGrant('the ID token lacks sub, aud or exp');
    if (audience !== clientId || (azp !== undefined && azp !== clientId)) throw OAuthError.invalidGrant('the ID token was issued to another client (aud)');
    if (typeof sid === 'string' && !(await this.sessions.isActive(sid))) throw OAuthError.invalidGrant('the session the ID token was issued in has ended');
    return {
      subject: sub,
      clientId,
      expiresAt: exp,
      ...(typeof authTime === 'number' ? { authTime } : {}),
      ...(typeof acr === 'string' ? { acr } : {}),
      ...(typeof sid === 'string' ? { sessionId: sid } : {}),
    };
  }
}

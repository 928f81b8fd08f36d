import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { signJws } from '../access-token/jws';
import { acrOf } from '../../protocol/authentication-context';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig, tokenLifetimes } from '../../platform/config/config.slices';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import { SigningKeyStore } from '../keys/signing-key.store';
import { accessTokenHash } from './at-hash';

export interface IdTokenRequest {
  readonly clientId: string;
  readonly subject: string;
  /** Epoch seconds. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  readonly sessionId?: string;
  readonly nonce?: string;
  /** The access token issued with it, for `at_hash`. */
  readonly accessToken: string;
}

/**
 * ID tokens (OpenID Connect Core §2, §3.1.3.6), typed `JWT` so that no resource server mistakes one
 * for an access token, and signed with RS256, the algorithm every relying party accepts (OpenID
 * Connect Core §3.1.3.7, docs/tokens.md#id-token-signing). Profile claims stay at UserInfo.
 */
@Injectable()
export class IdTokenIssuer {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(tokenLifetimes.KEY) private readonly lifetimes: ConfigType<typeof tokenLifetimes>,
    @Inject(SignInSessionService) private readonly sessions: Pick<SignInSessionService, 'recordIdTokenClient'>,
  ) {}

  async issue(request: IdTokenRequest): Promise<string> {
    const key = this.keys.idTokenSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: this.config.issuer,
      sub: request.subject,
      aud: request.clientId,
      azp: request.clientId,
      exp: now + this.lifetimes.idTokenSeconds,
      iat: now,
      auth_time: request.authTime,
      amr: request.authenticationMethods,
      at_hash: accessTokenHash(request.accessToken, key.algorithm),
    };
    // OpenID Connect Core §2: the authentication context class the sign-in met (docs/passkeys.md).
    const acr = acrOf(request.authenticationMethods);
    if (acr !== undefined) claims.acr = acr;
    if (request.sessionId !== undefined) claims.sid = request.sessionId;
    if (request.nonce !== undefined) claims.nonce = request.nonce;
    // OpenID Connect Back-Channel Logout 1.0 §2.2: the session's end will be told to every client it gave an ID token to.
    if (request.sessionId !== undefined) await this.sessions.recordIdTokenClient(request.sessionId, request.clientId);
    return signJws(this.jwt, claims, key, 'JWT');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import type { LogoutTokenClaims, SecurityEventClaims } from '../../identity/signals/security-event-types';
import { signJws } from '../access-token/jws';
import { SigningKeyStore } from '../keys/signing-key.store';

/** OpenID Connect Back-Channel Logout 1.0 §2.4: a logout token expires at most 2 minutes after it is issued. */
const LOGOUT_TOKEN_SECONDS = 120;

/**
 * Signs what signals deliver with the service's keys, through the one signing path (`signJws`), each
 * typed so that no verifier takes it for another kind of token: `logout+jwt` (Back-Channel Logout
 * 1.0 §2.4) and `secevent+jwt` (RFC 8417 §2.3, SSF 1.0 §4.1.1). Signed at each attempt: a logout token
 * retried for an hour would otherwise arrive expired. The `jti` stays that of the delivery.
 */
@Injectable()
export class SignalTokenSigner {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  logoutToken(claims: LogoutTokenClaims, audience: string, jwtId: string): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    const token = {
      iss: this.config.issuer,
      aud: audience,
      iat,
      exp: iat + LOGOUT_TOKEN_SECONDS,
      jti: jwtId,
      sub: claims.sub,
      sid: claims.sid,
      events: claims.events,
    };
    return signJws(this.jwt, token, this.keys.signingKey(), 'logout+jwt');
  }

  /** SSF 1.0 §4.1.4, §4.1.6: no `sub` and no `exp` in a SET; the subject is `sub_id`. */
  securityEventToken(claims: SecurityEventClaims, audience: string, jwtId: string): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    const token = {
      iss: this.config.issuer,
      aud: audience,
      iat,
      jti: jwtId,
      sub_id: claims.sub_id,
      ...(claims.txn ? { txn: claims.txn } : {}),
      events: claims.events,
    };
    return signJws(this.jwt, token, this.keys.signingKey(), 'secevent+jwt');
  }
}

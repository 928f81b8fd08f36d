import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { verifyJws } from '../access-token/jws';
import type { ConfigType } from '../config/config-slice';
import { issuerConfig } from '../config/config.slices';
import { SigningKeyStore } from '../keys/signing-key.store';
import { parseJsonObject } from '../oauth/json-object';

/** What a logout learns from an `id_token_hint`. */
export interface IdTokenHint {
  /** The client the ID token was issued to (`aud`). */
  readonly clientId: string;
  readonly subject: string;
  readonly sessionId?: string;
}

const MAX_HINT_LENGTH = 16 * 1024;

/**
 * Verifies an ID token of ours presented as `id_token_hint` (OpenID Connect RP-Initiated Logout 1.0
 * §2): our key, our issuer, `typ: JWT`; an expired one is still a good hint.
 */
@Injectable()
export class IdTokenHintVerifier {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  /** The hint's content, or undefined when it is not a valid ID token of ours. */
  async verify(token: string): Promise<IdTokenHint | undefined> {
    if (token.length > MAX_HINT_LENGTH) return undefined;
    const header = decodeSegment(token.split('.')[0] ?? '');
    if (!header || header.typ !== 'JWT' || typeof header.kid !== 'string') return undefined;
    const key = this.keys.verificationKey(header.kid);
    if (!key || header.alg !== key.algorithm) return undefined;
    try {
      const payload = (await verifyJws(this.jwt, token, key, this.config.issuer, { ignoreExpiration: true })) as Record<string, unknown>;
      const { aud, sub, sid } = payload;
      if (typeof aud !== 'string' || typeof sub !== 'string') return undefined;
      return { clientId: aud, subject: sub, sessionId: typeof sid === 'string' ? sid : undefined };
    } catch {
      return undefined;
    }
  }
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    return parseJsonObject(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import type { PublishedKey } from '../keys/signing-key';
import { SigningKeyStore } from '../keys/signing-key.store';
import { parseJsonObject } from '../../protocol/json-object';
import { OAuthError } from '../../protocol/oauth-error';
import { verifyJws } from './jws';

export const MAX_TOKEN_LENGTH = 16 * 1024;
// Header parameters that would let the token choose its own key, or demand extensions we do not implement.
const FORBIDDEN_HEADERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit', 'zip', 'enc'];
// Our key ids are RFC 7638 thumbprints (base64url); anything else cannot name a key we may not have loaded yet.
const KEY_ID = /^[\w-]{1,128}$/;

/** Which of our tokens is expected: its `typ` values (lower case, RFC 7515 §4.1.9), and how a wrong one is described. */
export interface OwnTokenKind {
  readonly types: ReadonlySet<string>;
  readonly wrongType: string;
  /** For ID tokens presented as logout hints (OpenID Connect RP-Initiated Logout 1.0 §2). */
  readonly ignoreExpiration?: boolean;
}

export interface VerifiedOwnToken {
  readonly claims: Record<string, unknown>;
  readonly key: PublishedKey;
}

/**
 * The one place our own tokens are verified (access, ID and transaction tokens), with one set of
 * header checks (docs/tokens.md#validation): a bounded compact JWS in canonical base64url, header and
 * payload JSON objects with unique members, the expected `typ`, no header that picks its own key,
 * a `kid` naming a published key (one created moments ago on another instance is loaded), that
 * key's `alg`, then signature, `iss` and lifetime (`verifyJws`: @nestjs/jwt, or `jose` for EdDSA).
 * Rejections are `invalid_token`; callers translate.
 */
@Injectable()
export class OwnTokenVerifier {
  constructor(
    private readonly jwt: JwtService,
    @Inject(SigningKeyStore) private readonly keys: Pick<SigningKeyStore, 'verificationKey' | 'verificationKeyAfterReload'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  async verify(token: string, kind: OwnTokenKind): Promise<VerifiedOwnToken> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw rejected('the token is empty or too long');
    const segments = token.split('.');
    if (segments.length !== 3) throw rejected('the token is not a compact JWS');
    const header = decodeJson(segments[0]);
    if (!header) throw rejected('the token header is not a JSON object with unique member names');
    if (typeof header.typ !== 'string' || !kind.types.has(header.typ.toLowerCase())) throw rejected(kind.wrongType);
    if (FORBIDDEN_HEADERS.some((name) => name in header)) throw rejected('the token header has parameters that are not accepted');
    // jsonwebtoken parses the payload with JSON.parse, which lets a repeated claim through.
    const claims = decodeJson(segments[1]);
    if (!claims) throw rejected('the token payload is not a JSON object with unique member names');
    const key = typeof header.kid === 'string' ? await this.publishedKey(header.kid, claims) : undefined;
    if (!key) throw rejected('the token was not signed with a published key');
    if (header.alg !== key.algorithm) throw rejected('the token algorithm is not accepted');
    try {
      await verifyJws(this.jwt, token, key, this.config.issuer, { ignoreExpiration: kind.ignoreExpiration });
    } catch {
      throw rejected('the token signature, issuer or lifetime is invalid');
    }
    return { claims, key };
  }

  /** A key another instance created moments ago is loaded at once, for tokens that claim to be ours. */
  private async publishedKey(kid: string, claims: Record<string, unknown>): Promise<PublishedKey | undefined> {
    const known = this.keys.verificationKey(kid);
    if (known || !KEY_ID.test(kid) || claims.iss !== this.config.issuer) return known;
    return this.keys.verificationKeyAfterReload(kid);
  }
}

function rejected(description: string): OAuthError {
  return OAuthError.invalidToken(description);
}

/** A base64url segment holding a JSON object, no member named twice (RFC 7515 §5.2, RFC 7519 §7.2). */
function decodeJson(segment: string): Record<string, unknown> | undefined {
  return parseJsonObject(Buffer.from(segment, 'base64url').toString('utf8'));
}

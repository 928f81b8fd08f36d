import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomBytes } from 'node:crypto';
import { continueWith, type GrantContinuation } from './grant-continuation';
import { signJws } from '../tokens/access-token/jws';
import type { ConfigType } from '../platform/config/config-slice';
import { issuerConfig } from '../platform/config/config.slices';
import { SigningKeyStore } from '../tokens/keys/signing-key.store';

/** A JWT the service signed for a grant. */
export interface SignedJwt {
  readonly token: string;
  /** Its `jti`. */
  readonly jwtId: string;
  /** Seconds until its `exp`. */
  readonly expiresIn: number;
  /**
   * For the grant's success (`{ subject, scopes, continuation }`): the token endpoint answers with
   * this JWT as `access_token`, `token_type: "N_A"`, `issued_token_type` and `expires_in` (RFC 8693
   * §2.2.1), and never a refresh token.
   */
  readonly continuation: GrantContinuation;
}

export interface JwtToSign {
  /** The `typ` header: not one of the types this service's own validators accept as its tokens. */
  readonly typ: string;
  /** Seconds from now, 1 to 3600. */
  readonly lifetimeSeconds: number;
  /** Claims besides `iss`, `iat`, `exp` and `jti`, which are set here. */
  readonly claims: Readonly<Record<string, unknown>>;
  /** The user it speaks for (the `sub` of our own tokens), for the token endpoint's checks and the audit log. */
  readonly subject: string;
  /** The scopes it carries, within the requested ones; for the audit log. */
  readonly scopes: readonly string[];
  /** RFC 8693 §2.2.1 `issued_token_type` of the response. */
  readonly issuedTokenType: string;
}

// Access, transaction, logout and security-event tokens are trusted by this service's own validators by their typ.
const RESERVED_TYPES = new Set(['at+jwt', 'application/at+jwt', 'txntoken+jwt', 'logout+jwt', 'secevent+jwt']);
const REGISTERED_CLAIMS = ['iss', 'iat', 'exp', 'jti'];

/**
 * Signs JWTs that a grant hands out for others to verify with this service's published keys (the
 * JWKS): e.g. the JWT authorization grants of token exchange for partner authorization servers
 * (docs/chaining.md). `iss` is `ISSUER`; `iat`, `exp` and a fresh `jti` are set here; the header
 * has `alg`, `kid` and the given `typ`. A token service for grants: the success it hands back is the
 * only way a grant answers with a token of its own instead of an access token.
 */
@Injectable()
export class TokenSigner {
  constructor(
    private readonly jwt: JwtService,
    @Inject(SigningKeyStore) private readonly keys: Pick<SigningKeyStore, 'signingKey'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  async sign({ typ, lifetimeSeconds, claims, subject, scopes, issuedTokenType }: JwtToSign): Promise<SignedJwt> {
    if (RESERVED_TYPES.has(typ.toLowerCase())) throw new Error(`TokenSigner does not sign tokens of typ ${typ}`);
    if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds < 1 || lifetimeSeconds > 3600) throw new Error('lifetimeSeconds must be 1 to 3600');
    const registered = REGISTERED_CLAIMS.find((name) => name in claims);
    if (registered !== undefined) throw new Error(`TokenSigner sets ${registered} itself`);
    const now = Math.floor(Date.now() / 1000);
    const jwtId = randomBytes(16).toString('base64url');
    const payload = { iss: this.config.issuer, ...claims, iat: now, exp: now + lifetimeSeconds, jti: jwtId };
    const token = await signJws(this.jwt, payload, this.keys.signingKey(), typ);
    const continuation = continueWith({
      kind: 'self_issued',
      subject,
      issuedTokenType,
      token: { token, tokenType: 'N_A', expiresIn: lifetimeSeconds, scopes },
    });
    return { token, jwtId, expiresIn: lifetimeSeconds, continuation };
  }
}

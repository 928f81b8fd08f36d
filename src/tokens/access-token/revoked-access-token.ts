/** An access token on the deny list (RFC 7009 §2.1): by `jti`, until it would have expired. */
export interface RevokedAccessToken {
  readonly jwtId: string;
  /** The token's `exp`, epoch seconds. */
  readonly expiresAt: number;
}

/**
 * The in-memory deny list of one instance: `jti` → `exp`. An entry is kept `graceSeconds` past the
 * token's `exp`, longer than the clock skew the validator tolerates, so a revoked token never
 * becomes acceptable again before it is rejected as expired.
 */
export class RevokedJwtIds {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly graceSeconds: number) {}

  get size(): number {
    return this.expiries.size;
  }

  has(jwtId: string): boolean {
    return this.expiries.has(jwtId);
  }

  add(tokens: readonly RevokedAccessToken[], nowSeconds: number): void {
    for (const { jwtId, expiresAt } of tokens) {
      if (expiresAt + this.graceSeconds > nowSeconds) this.expiries.set(jwtId, expiresAt);
    }
  }

  /** Forgets tokens that every validator now rejects as expired anyway. */
  prune(nowSeconds: number): void {
    for (const [jwtId, expiresAt] of this.expiries) {
      if (expiresAt + this.graceSeconds <= nowSeconds) this.expiries.delete(jwtId);
    }
  }
}

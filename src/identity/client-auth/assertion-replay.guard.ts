/**
 * Remembers the `jti` of every presented assertion until it expires, on every instance (RFC 7523 §3
 * item 7: the server may refuse a JWT whose `jti` it has seen): private_key_jwt assertions under
 * their client's id, DPoP proofs under their key, JWT authorization grants under their issuer.
 * PostgreSQL is the record; Redis (`REDIS_URL`) answers most replays in front of it. Also the DI
 * token, and a token service for grants: key the records of your own kind of assertion by a prefix
 * of your own (e.g. `jwt-bearer:<issuer>`).
 */
export abstract class AssertionReplayGuard {
  /** True the first time (scope, jti) is presented before `expiresAt`; false for a replay. */
  abstract firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean>;
}

/**
 * Remembers the `jti` of every private_key_jwt assertion until it expires, on every instance
 * (RFC 7523 §3 item 7: the server may refuse a JWT whose `jti` it has seen). Also the DI token.
 */
export abstract class AssertionReplayGuard {
  /** True the first time (client, jti) is presented before `expiresAt`; false for a replay. */
  abstract firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean>;
}

/** RFC 8693 §4.1 `act`: the party acting for the subject, nesting earlier actors. */
export interface ActorClaim {
  readonly client_id: string;
  readonly act?: ActorClaim;
}

/** RFC 8693 §4.4 `may_act`: the party allowed to act for the subject, by `client_id` or `sub`. */
export interface MayActClaim {
  readonly client_id?: string;
  readonly sub?: string;
}

/** docs/tokens.md#delegated-tokens: `act` nests at most this deep. */
export const MAX_ACTOR_DEPTH = 8;

/** An access token that passed docs/tokens.md#validation, as the protocol reads it. */
export interface ValidatedAccessToken {
  readonly jwtId: string;
  /**
   * The user the token represents: its `sub` when it carries `auth_time` or `amr`. Absent for a
   * token that represents only a client, whose `sub` is the client_id (RFC 9068 §2.2).
   */
  readonly subject?: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly audiences: readonly string[];
  readonly issuedAt: number;
  readonly expiresAt: number;
  readonly authTime?: number;
  readonly authenticationMethods?: readonly string[];
  /** RFC 9068 §2.2.1 `acr`: how the user signed in (docs/passkeys.md#authentication-context). */
  readonly acr?: string;
  readonly actor?: ActorClaim;
  readonly mayAct?: MayActClaim;
  /** RFC 9449 §6.1 `cnf.jkt`: the token is DPoP-bound to the key of this thumbprint. */
  readonly confirmation?: { readonly jkt: string };
}

/** Reads a `cnf` claim of a DPoP-bound token: `{ jkt }`, a base64url SHA-256 thumbprint; undefined when malformed. */
export function readConfirmationClaim(value: unknown): { jkt: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { jkt } = value as Record<string, unknown>;
  return typeof jkt === 'string' && /^[A-Za-z0-9_-]{43}$/.test(jkt) ? { jkt } : undefined;
}

/** Reads an `act` claim, returning undefined when it is not well formed or nests too deep. */
export function readActorClaim(value: unknown, depth = 1): ActorClaim | undefined {
  if (depth > MAX_ACTOR_DEPTH || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { client_id: clientId, act } = value as Record<string, unknown>;
  if (typeof clientId !== 'string') return undefined;
  if (act === undefined) return { client_id: clientId };
  const inner = readActorClaim(act, depth + 1);
  return inner ? { client_id: clientId, act: inner } : undefined;
}

export function actorDepth(actor: ActorClaim | undefined): number {
  let depth = 0;
  for (let current = actor; current; current = current.act) depth++;
  return depth;
}

/** Reads a `may_act` claim: an object naming a `client_id` or a `sub` (strings); undefined when malformed. */
export function readMayActClaim(value: unknown): MayActClaim | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { client_id: clientId, sub } = value as Record<string, unknown>;
  if ((clientId !== undefined && typeof clientId !== 'string') || (sub !== undefined && typeof sub !== 'string')) return undefined;
  if (clientId === undefined && sub === undefined) return undefined;
  return { ...(clientId === undefined ? {} : { client_id: clientId }), ...(sub === undefined ? {} : { sub }) };
}

/** RFC 8693 §4.4: whether `clientId` is the party a `may_act` claim allows (no claim allows anyone). */
export function mayActFor(mayAct: MayActClaim | undefined, clientId: string): boolean {
  return mayAct === undefined || mayAct.client_id === clientId || mayAct.sub === clientId;
}

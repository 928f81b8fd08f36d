import type { AuthorizationCode } from '../tokens/authorization/authorization-code';
import type { RefreshToken } from '../tokens/refresh-tokens/refresh-token';

declare const continuationBrand: unique symbol;

/**
 * What a grant hands the token endpoint when it finishes something Tollgate began — a code, a device
 * code, a refresh, a token signed by Tollgate itself. Opaque: only Tollgate's own services make one,
 * and the token endpoint answers a result carrying any other value `server_error`, so that no grant
 * can forge a session's `sid`, `amr`, `auth_time` or an ID token.
 */
export interface GrantContinuation {
  readonly [continuationBrand]: true;
}

/** A redeemed authorization code: its sign-in's tokens, bound to the code (RFC 6749 §4.1.2). */
export interface CodeRedemption {
  readonly kind: 'code_redemption';
  readonly code: AuthorizationCode;
  /** RFC 8707 §2.2: the access token's scopes and `aud` when `resource` narrowed the code's; by default the code's. */
  readonly scopes?: readonly string[];
  readonly audience?: readonly string[];
}

/** An approved device authorization (RFC 8628 §3.5): the tokens of the sign-in that approved it. */
export interface DeviceCodeRedemption {
  readonly kind: 'device_code_redemption';
  readonly subject: string;
  /** The scopes of the device authorization request, within the client's. */
  readonly scopes: readonly string[];
  /** Epoch seconds. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  /** The approving browser session: the ID token's `sid`. */
  readonly sessionId: string;
}

/** A refresh (RFC 6749 §6): `presented` is rotated, its successor issued with `scopes`. */
export interface RefreshRotation {
  readonly kind: 'refresh_rotation';
  readonly presented: RefreshToken;
  readonly scopes: readonly string[];
  /** RFC 8707: the access token's `aud`; by default the one the family was first issued with. */
  readonly audience?: readonly string[];
}

/** A token Tollgate signed instead of an access token (e.g. a transaction token). */
export interface SelfIssuedResult {
  readonly kind: 'self_issued';
  readonly subject: string;
  readonly token: SelfIssuedToken;
  /** RFC 8693 §2.2.1 `issued_token_type`. */
  readonly issuedTokenType: string;
  readonly subjectIssuer?: string;
}

export interface SelfIssuedToken {
  readonly token: string;
  /** RFC 8693 §2.2.1: `N_A` for a token that is not an access token. */
  readonly tokenType: 'N_A';
  readonly expiresIn: number;
  readonly scopes: readonly string[];
  /** The transaction it belongs to, for the audit log. */
  readonly transactionId?: string;
}

export type ContinuedGrant = CodeRedemption | DeviceCodeRedemption | RefreshRotation | SelfIssuedResult;

const issued = new WeakMap<GrantContinuation, ContinuedGrant>();

/** The continuation of `grant`, for a result's `continuation` (Tollgate's own services only). */
export function continueWith(grant: ContinuedGrant): GrantContinuation {
  const handle = Object.freeze(Object.create(null) as object) as GrantContinuation;
  issued.set(handle, grant);
  return handle;
}

/** What a continuation stands for; undefined for anything Tollgate did not hand out. */
export function continuedGrant(handle: unknown): ContinuedGrant | undefined {
  return typeof handle === 'object' && handle !== null ? issued.get(handle as GrantContinuation) : undefined;
}

const CONTINUED_KINDS: ReadonlySet<unknown> = new Set(['code_redemption', 'device_code_redemption', 'refresh_rotation', 'self_issued']);

/** True for a continued grant, false for a grant's own success. */
export function isContinued(result: { readonly kind?: string }): result is ContinuedGrant {
  return CONTINUED_KINDS.has(result.kind);
}

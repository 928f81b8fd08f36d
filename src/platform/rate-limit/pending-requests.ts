import { OAuthError } from '../../protocol/oauth-error';
import { addressKey } from './client-address';

/**
 * Bounds on the requests one client may hold pending (pushed authorization requests, device
 * authorizations; docs/throttling.md#pending-requests): per client, and per (client, address) for
 * requests anyone can make, well below the client's bound, so that no stranger's flood from one
 * address can lock the client out for everyone else (docs/throttling.md#pending-requests).
 */
export interface PendingLimits {
  readonly perClient: number;
  readonly perAddress: number;
}

export const PENDING_LIMITS: PendingLimits = { perClient: 10_000, perAddress: 100 };

/** Which bound a request found full. */
export type PendingBound = 'client' | 'address';

/** Until a pending request expires or is used, at most this long: when to try again. */
const RETRY_AFTER_SECONDS = 60;

/**
 * The key a pending request is counted under besides its client: its address (an IPv6 /64 as one)
 * when it needs no credential — a public client's, which anyone can send — none when the client
 * proved who it is, since only the client can then make it.
 */
export function pendingRequestOrigin(address: string, authenticated: boolean): string | undefined {
  return authenticated ? undefined : addressKey(address);
}

/** `429` with `Retry-After`: the bound that was full, in words. */
export function tooManyPending(bound: PendingBound, code: 'invalid_request' | 'temporarily_unavailable', what: string): OAuthError {
  const holder = bound === 'client' ? 'for this client' : 'for this client from this address';
  return new OAuthError(code, `too many ${what} are pending ${holder}`, { status: 429, retryAfterSeconds: RETRY_AFTER_SECONDS });
}

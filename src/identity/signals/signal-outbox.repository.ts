import type { LogoutTokenClaims, SecurityEventClaims } from './security-event-types';

export type SignalKind = 'backchannel_logout' | 'security_event';

/** A delivery an instance claimed: it alone works on it until `leaseUntil` (docs/signals.md#delivery). */
export interface ClaimedSignal {
  /** Also the `jti` of the token delivered, the same on every attempt: receivers may drop repeats. */
  readonly id: string;
  readonly kind: SignalKind;
  /** The receiver: the `aud` of the token. */
  readonly clientId: string;
  readonly streamId?: string;
  /** The back-channel logout URI, or the stream's `endpoint_url` as it is now. */
  readonly endpointUrl: string;
  /** RFC 8935 §2: the header a receiver asked to be sent with each push. */
  readonly authorizationHeader?: string;
  readonly eventType: string;
  readonly claims: LogoutTokenClaims | SecurityEventClaims;
  /** This attempt's number, from 1. */
  readonly attempts: number;
  readonly createdAt: Date;
}

/** A delivery given up: its event is dropped (expired, refused by the receiver, or not deliverable). */
export interface DroppedSignal {
  readonly kind: SignalKind;
  readonly clientId: string;
  readonly streamId?: string;
  readonly attempts: number;
  readonly lastError?: string;
}

/** How many deliveries wait, per kind, and per stream (with those held while it is paused). */
export interface SignalBacklog {
  readonly backchannelLogout: { readonly pending: number; readonly oldest?: Date };
  readonly streams: ReadonlyMap<string, { readonly pending: number; readonly oldest?: Date }>;
}

/**
 * The durable outbox in PostgreSQL (docs/signals.md#delivery): rows are written when the event
 * happens and deleted once delivered or given up; any instance delivers them.
 */
export abstract class SignalOutboxRepository {
  /** One logout token per client the session gave an ID token to that registered a `backchannel_logout_uri` (and is enabled). */
  abstract addLogouts(clientIds: readonly string[], claims: LogoutTokenClaims, lifetimeSeconds: number): Promise<number>;

  /**
   * One SET per stream that is not disabled, delivers `eventType`, and belongs to an enabled receiver
   * (a client allowed `ssf`) that `subject`'s tokens named: the privacy rule of docs/signals.md.
   */
  abstract addUserEvent(subject: string, eventType: string, claims: SecurityEventClaims, lifetimeSeconds: number): Promise<number>;

  /** One SET on one stream, whatever its events (a verification event). */
  abstract addStreamEvent(streamId: string, clientId: string, eventType: string, claims: SecurityEventClaims, lifetimeSeconds: number): Promise<void>;

  /** Claims up to `limit` due deliveries not leased by another instance, of streams that are enabled (`FOR UPDATE SKIP LOCKED`). */
  abstract claimDue(limit: number, leaseMs: number): Promise<ClaimedSignal[]>;

  abstract delete(id: string): Promise<void>;

  /** Releases the lease and tries again after `delayMs`. */
  abstract retryLater(id: string, delayMs: number, error: string): Promise<void>;

  /** Deletes up to `limit` deliveries past their expiry (not leased); returns what they were. */
  abstract deleteExpired(limit: number): Promise<DroppedSignal[]>;

  /** SSF 1.0 §8.1.2.1: a disabled stream holds nothing. */
  abstract deleteForStream(streamId: string): Promise<number>;

  abstract backlog(): Promise<SignalBacklog>;
}

import type { PendingBound, PendingLimits } from '../../platform/rate-limit/pending-requests';
import type { PushedParameters } from './pushed-authorization-request';

export interface StoredPushedRequest {
  readonly requestUriHash: string;
  readonly clientId: string;
  readonly parameters: PushedParameters;
  readonly expiresAt: Date;
  /** The address an anonymous push came from (docs/throttling.md#pending-requests); none for an authenticated client's. */
  readonly requestedFrom?: string;
}

/** Where pushed authorization requests are stored, by a hash of their `request_uri`; also the DI token. */
export abstract class PushedAuthorizationRequestRepository {
  /**
   * Stores the request unless its client holds `limits.perClient` ones already, or, for a request
   * with `requestedFrom`, `limits.perAddress` from that address: the bound that was full then.
   * Expired ones make room.
   */
  abstract add(request: StoredPushedRequest, limits: PendingLimits, now: Date): Promise<PendingBound | undefined>;
  /**
   * The first use at the authorization endpoint: in one conditional update, an unexpired request of
   * the client not used before is marked used and lives on until `until`. Its parameters, or undefined.
   */
  abstract claim(requestUriHash: string, clientId: string, now: Date, until: Date): Promise<PushedParameters | undefined>;
  /** A request of the client used at the authorization endpoint and not expired: its parameters, or undefined. */
  abstract findClaimed(requestUriHash: string, clientId: string, now: Date): Promise<PushedParameters | undefined>;
  abstract replaceParameters(requestUriHash: string, parameters: PushedParameters): Promise<void>;
  /** Deletes a used, unexpired request of the client: true for exactly one caller. */
  abstract consume(requestUriHash: string, clientId: string, now: Date): Promise<boolean>;
  abstract deleteExpiredBefore(cutoff: Date): Promise<number>;
}

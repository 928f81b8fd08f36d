import type { PushedParameters } from './pushed-authorization-request';

export interface StoredPushedRequest {
  readonly requestUriHash: string;
  readonly clientId: string;
  readonly parameters: PushedParameters;
  readonly expiresAt: Date;
}

/** Where pushed authorization requests are stored, by a hash of their `request_uri`; also the DI token. */
export abstract class PushedAuthorizationRequestRepository {
  /** Stores the request unless its client holds `limit` unexpired ones already; false then. Expired ones make room. */
  abstract add(request: StoredPushedRequest, limit: number, now: Date): Promise<boolean>;
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

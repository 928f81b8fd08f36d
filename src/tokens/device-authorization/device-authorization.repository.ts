import type { PendingBound, PendingLimits } from '../../platform/rate-limit/pending-requests';
import type { DeviceApproval, DeviceAuthorization } from './device-authorization';

export interface NewDeviceAuthorization {
  readonly deviceCodeHash: string;
  readonly userCode: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** `acr_values` of the request, the known ones (docs/passkeys.md#step-up). */
  readonly acrValues?: readonly string[];
  readonly intervalSeconds: number;
  readonly expiresAt: Date;
  /** The address an anonymous request came from (docs/throttling.md#pending-requests); none for an authenticated client's. */
  readonly requestedFrom?: string;
}

/** Where device authorization requests are stored, shared by every instance; also the DI token. */
export abstract class DeviceAuthorizationRepository {
  /**
   * The bound a new request would pass: the client holds `limits.perClient` unexpired requests, or
   * (with `requestedFrom`) `limits.perAddress` from that address. Concurrent requests may pass it
   * together, so a bound may be passed by a few, never without limit.
   */
  abstract fullFor(clientId: string, requestedFrom: string | undefined, limits: PendingLimits, now: Date): Promise<PendingBound | undefined>;
  /** Stores the request; false when its user code is taken (the caller draws another). */
  abstract add(request: NewDeviceAuthorization): Promise<boolean>;
  abstract findByDeviceCode(deviceCodeHash: string, clientId: string): Promise<DeviceAuthorization | undefined>;
  /** A pending, unexpired request by its user code. */
  abstract findPendingByUserCode(userCode: string, now: Date): Promise<DeviceAuthorization | undefined>;
  /** The user's answer, for a request still pending and unexpired: true for exactly one caller. */
  abstract answer(userCode: string, approval: DeviceApproval | undefined, now: Date): Promise<boolean>;
  /** Records a poll (RFC 8628 §3.5), with the interval the client is told to keep from now on. */
  abstract recordPoll(deviceCodeHash: string, now: Date, intervalSeconds: number): Promise<void>;
  /** Marks an approved request redeemed: true for exactly one caller. */
  abstract redeem(deviceCodeHash: string, now: Date): Promise<boolean>;
  abstract deleteExpiredBefore(cutoff: Date): Promise<number>;
}

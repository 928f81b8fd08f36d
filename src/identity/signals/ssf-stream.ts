/** SSF 1.0 §8.1.2: enabled delivers, paused holds, disabled drops. */
export type StreamStatus = 'enabled' | 'paused' | 'disabled';

export const STREAM_STATUSES: readonly StreamStatus[] = ['enabled', 'paused', 'disabled'];

/** A receiver's Shared Signals stream (SSF 1.0 §8.1.1), pushed per RFC 8935. Tollgate keeps one per receiver. */
export interface SsfStream {
  readonly streamId: string;
  /** The receiver: the client that created it, the `aud` of its SETs. */
  readonly clientId: string;
  readonly endpointUrl: string;
  readonly authorizationHeader?: string;
  readonly eventsRequested: readonly string[];
  readonly eventsDelivered: readonly string[];
  readonly description?: string;
  readonly status: StreamStatus;
  readonly statusReason?: string;
  readonly lastVerificationAt?: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the receiver sets (SSF 1.0 §8.1.1 "Receiver-Supplied"), and what Tollgate derives from it. */
export type StreamSettings = Pick<SsfStream, 'endpointUrl' | 'authorizationHeader' | 'eventsRequested' | 'eventsDelivered' | 'description'>;

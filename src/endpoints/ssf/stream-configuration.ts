import { SUPPORTED_STREAM_EVENTS } from '../../identity/signals/security-event-types';
import type { SsfStream } from '../../identity/signals/ssf-stream';
import { PUSH_DELIVERY, type TransmitterValues } from './stream-request';

/** SSF 1.0 §8.1.1: how often a receiver may ask for a verification event. */
export const MIN_VERIFICATION_INTERVAL_SECONDS = 5;

export type StreamConfiguration = Record<string, unknown>;

/** The values of a stream the transmitter sets (SSF 1.0 §8.1.1 "Transmitter-Supplied"). */
export function transmitterValues(issuer: string, stream: SsfStream): TransmitterValues {
  return {
    iss: issuer,
    aud: stream.clientId,
    events_supported: SUPPORTED_STREAM_EVENTS,
    events_delivered: stream.eventsDelivered,
    min_verification_interval: MIN_VERIFICATION_INTERVAL_SECONDS,
  };
}

/** SSF 1.0 §8.1.1: the stream configuration; the authorization header goes back only to its receiver, never to a log. */
export function streamConfiguration(issuer: string, stream: SsfStream): StreamConfiguration {
  const { events_supported, events_delivered, iss, aud, min_verification_interval } = transmitterValues(issuer, stream);
  return {
    stream_id: stream.streamId,
    iss,
    aud,
    delivery: {
      method: PUSH_DELIVERY,
      endpoint_url: stream.endpointUrl,
      ...(stream.authorizationHeader === undefined ? {} : { authorization_header: stream.authorizationHeader }),
    },
    events_supported,
    events_requested: stream.eventsRequested,
    events_delivered,
    ...(stream.description === undefined ? {} : { description: stream.description }),
    min_verification_interval,
  };
}

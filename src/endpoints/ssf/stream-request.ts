import { OAuthError } from '../../protocol/oauth-error';
import { deliveryUrlProblem } from '../../identity/signals/delivery-url';
import { SUPPORTED_STREAM_EVENTS } from '../../identity/signals/security-event-types';
import type { SsfStream, StreamSettings } from '../../identity/signals/ssf-stream';

/** RFC 8935: push delivery, the one method Tollgate transmits with (SSF 1.0 §6.1.1). */
export const PUSH_DELIVERY = 'urn:ietf:rfc:8935';
const POLL_DELIVERY = 'urn:ietf:rfc:8936';
const MAX_EVENTS_REQUESTED = 50;
const MAX_EVENT_URI = 500;
const MAX_DESCRIPTION = 500;
const MAX_AUTHORIZATION_HEADER = 4096;
// RFC 9110 §5.5: a field value of visible characters and spaces; no CR or LF that would start another header.
const FIELD_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/** How a request changes the Receiver-Supplied values (SSF 1.0 §8.1.1): create, PATCH (those sent), PUT (all of them; missing ones are removed). */
export type StreamChange = 'create' | 'update' | 'replace';

/** The Transmitter-Supplied values a PATCH or PUT may repeat, which must then be as they are (SSF 1.0 §8.1.1.3). */
export interface TransmitterValues {
  readonly iss: string;
  readonly aud: string;
  readonly events_supported: readonly string[];
  readonly events_delivered: readonly string[];
  readonly min_verification_interval: number;
}

/** A JSON object request body (SSF 1.0 §8.1.1): `application/json`, an object. */
export function jsonObject(body: unknown, contentType: string | undefined): Record<string, unknown> {
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') throw OAuthError.invalidRequest('the request body must be application/json');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw OAuthError.invalidRequest('the request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** The stream's settings after the request, checked: where to push, what to send with it, which events. */
export function readStreamSettings(
  body: Readonly<Record<string, unknown>>,
  change: StreamChange,
  current: SsfStream | undefined,
  transmitter: TransmitterValues | undefined,
  allowLoopbackHttp: boolean,
): StreamSettings {
  if (transmitter) checkTransmitterValues(body, transmitter);
  const keep = change === 'update' && current !== undefined;
  const delivery = body.delivery === undefined && keep ? undefined : readDelivery(body.delivery, allowLoopbackHttp);
  const eventsRequested = body.events_requested === undefined ? (keep ? current.eventsRequested : []) : readEventsRequested(body.events_requested);
  const description = body.description === undefined ? (keep ? current.description : undefined) : readDescription(body.description);
  return {
    endpointUrl: delivery?.endpointUrl ?? current!.endpointUrl,
    authorizationHeader: delivery ? delivery.authorizationHeader : current?.authorizationHeader,
    eventsRequested,
    // SSF 1.0 §8.1.1: unknown event types are ignored; what is delivered is what was asked for and is supported.
    eventsDelivered: SUPPORTED_STREAM_EVENTS.filter((event) => eventsRequested.includes(event)),
    description,
  };
}

/** The `stream_id` a body names (PATCH, PUT, status, verification). */
export function bodyStreamId(body: Readonly<Record<string, unknown>>): string {
  const streamId = body.stream_id;
  if (typeof streamId !== 'string' || streamId === '' || streamId.length > 200) throw OAuthError.invalidRequest('stream_id is required');
  return streamId;
}

/** An optional string member, bounded. */
export function optionalText(body: Readonly<Record<string, unknown>>, name: string, maxLength = MAX_DESCRIPTION): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > maxLength) throw OAuthError.invalidRequest(`${name} must be a string of at most ${maxLength} characters`);
  return value;
}

function readDelivery(value: unknown, allowLoopbackHttp: boolean): { endpointUrl: string; authorizationHeader?: string } {
  // SSF 1.0 §8.1.1.1: no delivery means poll, which Tollgate does not offer.
  if (value === undefined) throw OAuthError.invalidRequest(`delivery is required: only push delivery (${PUSH_DELIVERY}) is supported`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw OAuthError.invalidRequest('delivery must be a JSON object');
  const { method, endpoint_url: endpointUrl, authorization_header: authorization } = value as Record<string, unknown>;
  if (method === POLL_DELIVERY || method !== PUSH_DELIVERY)
    throw OAuthError.invalidRequest(`delivery.method must be ${PUSH_DELIVERY}: poll delivery is not supported`);
  if (typeof endpointUrl !== 'string') throw OAuthError.invalidRequest('delivery.endpoint_url is required');
  const problem = deliveryUrlProblem(endpointUrl, allowLoopbackHttp);
  if (problem !== undefined) throw OAuthError.invalidRequest(`delivery.endpoint_url ${problem}`);
  if (authorization === undefined) return { endpointUrl };
  if (typeof authorization !== 'string' || authorization.length > MAX_AUTHORIZATION_HEADER || !FIELD_VALUE.test(authorization)) {
    throw OAuthError.invalidRequest(`delivery.authorization_header must be one header value of at most ${MAX_AUTHORIZATION_HEADER} visible characters`);
  }
  return { endpointUrl, authorizationHeader: authorization };
}

function readEventsRequested(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_EVENTS_REQUESTED || !value.every((item) => typeof item === 'string' && item.length <= MAX_EVENT_URI)) {
    throw OAuthError.invalidRequest(`events_requested must be an array of at most ${MAX_EVENTS_REQUESTED} event type URIs`);
  }
  return [...new Set(value as string[])];
}

/** SSF 1.0 §8.1.1: the transmitter may truncate a long description. */
function readDescription(value: unknown): string {
  if (typeof value !== 'string') throw OAuthError.invalidRequest('description must be a string');
  return value.slice(0, MAX_DESCRIPTION);
}

function checkTransmitterValues(body: Readonly<Record<string, unknown>>, expected: TransmitterValues): void {
  for (const [name, value] of Object.entries(expected)) {
    if (body[name] !== undefined && JSON.stringify(body[name]) !== JSON.stringify(value)) {
      throw OAuthError.invalidRequest(`${name} is set by the transmitter and must be ${JSON.stringify(value)} if sent`);
    }
  }
}

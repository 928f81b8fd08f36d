import { OAuthError } from '../../protocol/oauth-error';
import type { SsfStream } from '../../identity/signals/ssf-stream';
import { jsonObject, readStreamSettings, type TransmitterValues } from './stream-request';
import { ssfConfigurationPath } from './ssf-configuration';

const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
const PUSH = { method: 'urn:ietf:rfc:8935', endpoint_url: 'https://api2.example/events' };

const STREAM: SsfStream = {
  streamId: 'stream-1',
  clientId: 'api2',
  endpointUrl: 'https://api2.example/events',
  authorizationHeader: 'Bearer secret',
  eventsRequested: [SESSION_REVOKED],
  eventsDelivered: [SESSION_REVOKED],
  description: 'API 2',
  status: 'enabled',
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

const TRANSMITTER: TransmitterValues = {
  iss: 'https://id.example',
  aud: 'api2',
  events_supported: [SESSION_REVOKED, CREDENTIAL_CHANGE],
  events_delivered: [SESSION_REVOKED],
  min_verification_interval: 5,
};

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof OAuthError) return `${error.status} ${error.code}: ${error.description}`;
    throw error;
  }
  return 'accepted';
}

describe('jsonObject', () => {
  it('refuses another media type, and JSON that is not an object', () => {
    expect(refusal(() => jsonObject({}, 'application/x-www-form-urlencoded'))).toBe('400 invalid_request: the request body must be application/json');
    expect(refusal(() => jsonObject([], 'application/json; charset=utf-8'))).toBe('400 invalid_request: the request body must be a JSON object');
    expect(jsonObject({ a: 1 }, 'application/json; charset=utf-8')).toEqual({ a: 1 });
  });
});

describe('readStreamSettings', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['no delivery (poll)', {}, 'delivery is required: only push delivery (urn:ietf:rfc:8935) is supported'],
    ['poll delivery', { delivery: { method: 'urn:ietf:rfc:8936' } }, 'delivery.method must be urn:ietf:rfc:8935: poll delivery is not supported'],
    ['no endpoint', { delivery: { method: PUSH.method } }, 'delivery.endpoint_url is required'],
    ['a private http endpoint', { delivery: { ...PUSH, endpoint_url: 'http://10.1.2.3/events' } }, 'delivery.endpoint_url must be https'],
    [
      'a header that would start another',
      { delivery: { ...PUSH, authorization_header: 'Bearer x\r\nX-Other: 1' } },
      'delivery.authorization_header must be one header value',
    ],
    ['events that are not a list of strings', { delivery: PUSH, events_requested: [SESSION_REVOKED, 7] }, 'events_requested must be an array'],
    ['a description that is not a string', { delivery: PUSH, description: 7 }, 'description must be a string'],
  ])('refuses %s', (_, body, problem) => {
    expect(refusal(() => readStreamSettings(body, 'create', undefined, undefined, false))).toContain(`400 invalid_request: ${problem}`);
  });

  it('delivers the requested events it supports, ignoring the others (SSF 1.0 §8.1.1)', () => {
    const settings = readStreamSettings(
      { delivery: PUSH, events_requested: ['urn:example:other', CREDENTIAL_CHANGE, CREDENTIAL_CHANGE] },
      'create',
      undefined,
      undefined,
      false,
    );
    expect(settings).toEqual({
      endpointUrl: PUSH.endpoint_url,
      authorizationHeader: undefined,
      eventsRequested: ['urn:example:other', CREDENTIAL_CHANGE],
      eventsDelivered: [CREDENTIAL_CHANGE],
      description: undefined,
    });
  });

  it('changes only what a PATCH sends, and removes what a PUT leaves out', () => {
    expect(readStreamSettings({ stream_id: 'stream-1', description: 'renamed' }, 'update', STREAM, TRANSMITTER, false)).toEqual({
      endpointUrl: STREAM.endpointUrl,
      authorizationHeader: 'Bearer secret',
      eventsRequested: [SESSION_REVOKED],
      eventsDelivered: [SESSION_REVOKED],
      description: 'renamed',
    });
    expect(readStreamSettings({ stream_id: 'stream-1', delivery: PUSH }, 'replace', STREAM, TRANSMITTER, false)).toEqual({
      endpointUrl: PUSH.endpoint_url,
      authorizationHeader: undefined,
      eventsRequested: [],
      eventsDelivered: [],
      description: undefined,
    });
  });

  it('accepts the transmitter-supplied values repeated as they are, and refuses them changed (SSF 1.0 §8.1.1.3)', () => {
    expect(refusal(() => readStreamSettings({ ...TRANSMITTER, stream_id: 'stream-1' }, 'update', STREAM, TRANSMITTER, false))).toBe('accepted');
    expect(refusal(() => readStreamSettings({ stream_id: 'stream-1', events_delivered: [] }, 'update', STREAM, TRANSMITTER, false))).toBe(
      '400 invalid_request: events_delivered is set by the transmitter and must be ["https://schemas.openid.net/secevent/caep/event-type/session-revoked"] if sent',
    );
  });

  it('accepts a loopback http endpoint only while the issuer is http', () => {
    const loopback = { delivery: { ...PUSH, endpoint_url: 'http://127.0.0.1:5182/events' } };
    expect(readStreamSettings(loopback, 'create', undefined, undefined, true).endpointUrl).toBe('http://127.0.0.1:5182/events');
    expect(refusal(() => readStreamSettings(loopback, 'create', undefined, undefined, false))).toContain('may be http only while the issuer is http');
  });
});

describe('ssfConfigurationPath', () => {
  it('puts the well-known segment before the path of an issuer that has one (SSF 1.0 §7.2)', () => {
    expect(ssfConfigurationPath('https://id.example')).toBe('/.well-known/ssf-configuration');
    expect(ssfConfigurationPath('https://id.example/tenant1')).toBe('/.well-known/ssf-configuration/tenant1');
  });
});

/** OpenID Connect Back-Channel Logout 1.0 §2.4: the one event of a logout token. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** CAEP 1.0 §3.1 and §3.2. */
export const SESSION_REVOKED_EVENT = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
export const CREDENTIAL_CHANGE_EVENT = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
/** SSF 1.0 §8.1.4.1: sent on request on any stream, whatever its events. */
export const VERIFICATION_EVENT = 'https://schemas.openid.net/secevent/ssf/event-type/verification';

/** What a stream may request (`events_supported`, SSF 1.0 §8.1.1). */
export const SUPPORTED_STREAM_EVENTS: readonly string[] = [SESSION_REVOKED_EVENT, CREDENTIAL_CHANGE_EVENT];

/** CAEP 1.0 §2 `initiating_entity`. */
export type InitiatingEntity = 'admin' | 'user' | 'policy' | 'system';

/** CAEP 1.0 §3.2 `credential_type` values Tollgate has credentials of. */
export type CredentialType = 'password' | 'fido2-platform' | 'fido2-roaming';

/** CAEP 1.0 §3.2 `change_type`. */
export type CredentialChangeType = 'create' | 'revoke' | 'update' | 'delete';

/** The claims of a SET besides `iss`, `aud`, `iat` and `jti`, which are added when it is signed for delivery (RFC 8417 §2.2, SSF 1.0 §4.1). */
export interface SecurityEventClaims {
  readonly sub_id: { readonly format: 'iss_sub'; readonly iss: string; readonly sub: string } | { readonly format: 'opaque'; readonly id: string };
  readonly txn?: string;
  readonly events: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A logout token's claims besides `iss`, `aud`, `iat`, `exp` and `jti` (OpenID Connect Back-Channel Logout 1.0 §2.4); never `nonce`. */
export interface LogoutTokenClaims {
  readonly sub: string;
  readonly sid: string;
  readonly events: { readonly [BACKCHANNEL_LOGOUT_EVENT]: Record<string, never> };
}

export function logoutTokenClaims(subject: string, sessionId: string): LogoutTokenClaims {
  return { sub: subject, sid: sessionId, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } };
}

/** A CAEP event about a user of this issuer (SSF 1.0 §3.2: the `iss_sub` subject identifier of RFC 9493 §3.2.4). */
export function userEventClaims(issuer: string, subject: string, txn: string, eventType: string, event: Record<string, unknown>): SecurityEventClaims {
  return { sub_id: { format: 'iss_sub', iss: issuer, sub: subject }, txn, events: { [eventType]: event } };
}

/** SSF 1.0 §8.1.4.1: the subject of a verification event is the stream. */
export function verificationClaims(streamId: string, state: string | undefined): SecurityEventClaims {
  return { sub_id: { format: 'opaque', id: streamId }, events: { [VERIFICATION_EVENT]: state === undefined ? {} : { state } } };
}

import type { OAuthErrorCode } from '../../protocol/oauth-error';

export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §3.2: how long the codes live. */
export const DEVICE_CODE_LIFETIME_SECONDS = 600;
/** RFC 8628 §3.2: the polling interval, 5 s unless the client was told to slow down. */
export const POLLING_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: each `slow_down` adds 5 s to the interval. */
export const SLOW_DOWN_INCREMENT_SECONDS = 5;
/** An interval never grows past this: a client that keeps hammering gets `slow_down` at a fixed pace. */
export const MAX_POLLING_INTERVAL_SECONDS = 60;

export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/** A user's approval on the verification page: whose sign-in the tokens are issued for. */
export interface DeviceApproval {
  readonly subject: string;
  readonly sessionId: string;
  /** Epoch seconds. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
}

/** A device authorization request as stored (RFC 8628 §3.1–3.2). */
export interface DeviceAuthorization {
  readonly clientId: string;
  readonly userCode: string;
  readonly scopes: readonly string[];
  /** The `acr` values the request asks the approving sign-in for (docs/passkeys.md#step-up). */
  readonly acrValues?: readonly string[];
  readonly status: DeviceAuthorizationStatus;
  readonly approval?: DeviceApproval;
  readonly intervalSeconds: number;
  readonly lastPolledAt?: Date;
  readonly expiresAt: Date;
}

/** RFC 8628 §3.2: the device authorization response. */
export interface DeviceAuthorizationResponse {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly expires_in: number;
  readonly interval: number;
}

/** What a poll of the token endpoint gets (RFC 8628 §3.5). */
export type PollDecision =
  | { readonly kind: 'issue' }
  | { readonly kind: 'refuse'; readonly error: OAuthErrorCode; readonly description: string }
  | { readonly kind: 'slow_down'; readonly intervalSeconds: number };

/**
 * RFC 8628 §3.5 for a known device code of the polling client: a code used already is
 * `invalid_grant` (docs/device-authorization.md); then expiry, the user's answer, and a poll sooner than the
 * interval after the last one (`slow_down`, the interval 5 s longer) while the user has not answered.
 */
export function decidePoll(authorization: DeviceAuthorization, now: Date): PollDecision {
  if (authorization.status === 'redeemed') return refuse('invalid_grant', 'the device code has been used already');
  if (authorization.expiresAt.getTime() <= now.getTime()) return refuse('expired_token', 'the device code has expired');
  if (authorization.status === 'denied') return refuse('access_denied', 'the user denied the request');
  if (authorization.status === 'approved') return { kind: 'issue' };
  const { lastPolledAt, intervalSeconds } = authorization;
  if (lastPolledAt !== undefined && now.getTime() - lastPolledAt.getTime() < intervalSeconds * 1000) {
    return { kind: 'slow_down', intervalSeconds: Math.min(intervalSeconds + SLOW_DOWN_INCREMENT_SECONDS, MAX_POLLING_INTERVAL_SECONDS) };
  }
  return refuse('authorization_pending', 'the user has not answered yet');
}

function refuse(error: OAuthErrorCode, description: string): PollDecision {
  return { kind: 'refuse', error, description };
}

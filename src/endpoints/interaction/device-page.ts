/** The verification page's steps (RFC 8628 §3.3, docs/device-authorization.md). */
export type DevicePage =
  /** Sign in first: the login page, posting to the device flow's own login endpoints. `passkey`: the passkey form failed. */
  | { readonly kind: 'device_login'; readonly userCode: string; readonly failed: boolean; readonly username: string; readonly passkey?: boolean }
  /** The user code form, prefilled from `verification_uri_complete`. */
  | { readonly kind: 'device_entry'; readonly userCode: string; readonly subject: string; readonly problem?: DeviceEntryProblem }
  /** The confirmation naming the client, for every code (RFC 8628 §5.4), the user code carried. */
  | {
      readonly kind: 'device_consent';
      readonly userCode: string;
      readonly subject: string;
      readonly clientName: string;
      readonly scopes: readonly string[];
    }
  /** RFC 9470 (docs/passkeys.md#step-up): the request asks for a passkey sign-in; the user code carried. */
  | { readonly kind: 'device_step_up'; readonly userCode: string; readonly subject: string; readonly clientName: string; readonly failed?: boolean }
  /** `unmet`: denied because the request asks for a passkey and the user has none. */
  | { readonly kind: 'device_answered'; readonly approved: boolean; readonly clientName: string; readonly unmet?: boolean };

/** A wrong or expired code, or too many wrong codes (docs/throttling.md#user-codes): wait that long. */
export type DeviceEntryProblem = { readonly kind: 'invalid' } | { readonly kind: 'throttled'; readonly retryAfterSeconds: number };

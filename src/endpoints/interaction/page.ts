import type { AuthorizationOutcome } from '../../tokens/authorization/authorization-outcome';
import type { AccountPage } from './account-page';
import type { DevicePage } from './device-page';

/** What a browser-facing endpoint answers, with the cookies to set; `PageRenderer` renders it. */
export type Page =
  | AuthorizationOutcome
  | DevicePage
  | AccountPage
  | {
      readonly kind: 'login_failed';
      readonly outcome: Extract<AuthorizationOutcome, { kind: 'login' }>;
      readonly username: string;
      /** The passkey form failed, not the password form. */
      readonly passkey?: boolean;
    }
  /** The step-up page again: the passkey did not verify, or is another user's. */
  | { readonly kind: 'step_up_failed'; readonly outcome: Extract<AuthorizationOutcome, { kind: 'step_up' }> }
  | { readonly kind: 'csrf_failed' }
  | { readonly kind: 'busy'; readonly retryAfterSeconds: number }
  | { readonly kind: 'signed_out' }
  | { readonly kind: 'redirect'; readonly location: string }
  /** OpenID Connect RP-Initiated Logout 1.0 §2: "Sign out?", the logout request in hidden fields. */
  | { readonly kind: 'logout_confirmation'; readonly carried: Readonly<Record<string, string>>; readonly returnTo?: string };

export interface PageResult {
  readonly page: Page;
  readonly cookies?: readonly string[];
  /** The handle of the session this response starts (its cookie is in `cookies`, not yet in the request's). */
  readonly sessionHandle?: string;
}

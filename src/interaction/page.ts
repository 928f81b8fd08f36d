import type { AuthorizationOutcome } from '../authorize/authorization-outcome';

/** What a browser-facing endpoint answers, with the cookies to set; `PageRenderer` renders it. */
export type Page =
  | AuthorizationOutcome
  | { readonly kind: 'login_failed'; readonly outcome: Extract<AuthorizationOutcome, { kind: 'login' }>; readonly username: string }
  | { readonly kind: 'csrf_failed' }
  | { readonly kind: 'busy'; readonly retryAfterSeconds: number }
  | { readonly kind: 'signed_out' }
  | { readonly kind: 'redirect'; readonly location: string };

export interface PageResult {
  readonly page: Page;
  readonly cookies?: readonly string[];
}

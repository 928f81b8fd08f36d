import type { Client } from '../../identity/clients/client';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import type { AccountPage } from './account-page';
import type { DevicePage } from './device-page';

/** The authorization parameters carried through the login, step-up and consent pages, as hidden fields. */
export type CarriedParameters = Readonly<Record<string, string>>;

/** What the login, step-up and consent pages show of the authorization request they continue. */
export interface RequestShown {
  readonly client: Client;
  readonly redirectUri: string;
  readonly loginHint?: string;
}

/** Where a response at the client's redirect URI goes. */
export interface PageTarget {
  readonly redirectUri: string;
  readonly responseMode: 'query' | 'form_post';
}

/**
 * The authorization endpoint's answers as pages: an error page, a response at the redirect URI, the
 * login, consent and step-up pages. The endpoint's own `AuthorizationOutcome`
 * (src/endpoints/authorize/authorization-outcome.ts) is this with its full request and target.
 */
export type AuthorizationPage<R extends RequestShown = RequestShown, T extends PageTarget = PageTarget> =
  /** RFC 6749 §4.1.2.1: client or redirect URI not trusted: an error page, never a redirect. */
  | { readonly kind: 'error_page'; readonly description: string }
  /** A response at the client's redirect URI: code or error, with `state` and `iss` (RFC 9207). */
  | { readonly kind: 'respond'; readonly target: T; readonly parameters: Readonly<Record<string, string>> }
  | { readonly kind: 'login'; readonly request: R; readonly carried: CarriedParameters }
  /** `scopes`: what the consent page asks for, the requested scopes the user has not allowed this client yet. */
  | { readonly kind: 'consent'; readonly request: R; readonly carried: CarriedParameters; readonly session: SignInSession; readonly scopes: readonly string[] }
  /** RFC 9470: the session's sign-in is weaker than the request needs: a passkey, within the same session. */
  | { readonly kind: 'step_up'; readonly request: R; readonly carried: CarriedParameters; readonly session: SignInSession };

/** What a browser-facing endpoint answers, with the cookies to set; `PageRenderer` renders it. */
export type Page =
  | AuthorizationPage
  | DevicePage
  | AccountPage
  | {
      readonly kind: 'login_failed';
      readonly outcome: Extract<AuthorizationPage, { kind: 'login' }>;
      readonly username: string;
      /** The passkey form failed, not the password form. */
      readonly passkey?: boolean;
    }
  /** The step-up page again: the passkey did not verify, or is another user's. */
  | { readonly kind: 'step_up_failed'; readonly outcome: Extract<AuthorizationPage, { kind: 'step_up' }> }
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

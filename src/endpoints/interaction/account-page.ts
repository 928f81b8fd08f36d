import type { Passkey } from '../../identity/passkeys/passkey';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import type { User } from '../../identity/users/user';

/** A sign-in within this long lets the user add or remove passkeys (docs/passkeys.md#the-account-page--get-account). */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;

/** What changed, or failed, on the account page just now. */
export type AccountNotice = 'added' | 'renamed' | 'removed' | 'signed_in' | 'add_failed' | 'sign_in_failed' | 'not_recent' | 'not_found';

/** The account page (docs/passkeys.md#the-account-page--get-account). */
export type AccountPage =
  /** No session: the login page, posting to the account page's own sign-in endpoints. */
  | { readonly kind: 'account_login'; readonly failed: boolean; readonly passkeyFailed: boolean; readonly username: string }
  | {
      readonly kind: 'account';
      readonly session: SignInSession;
      readonly user: User;
      readonly passkeys: readonly Passkey[];
      /** Signed in within RECENT_SIGN_IN_SECONDS: passkeys may be added and removed. */
      readonly recent: boolean;
      readonly notice?: AccountNotice;
    };

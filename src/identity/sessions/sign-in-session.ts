/** A user's sign-in at this service, shared by every instance (docs/browser-sign-in.md). */
export interface SignInSession {
  /** The public id of the session: the `sid` of ID tokens; never the cookie's value. */
  readonly sessionId: string;
  readonly subject: string;
  /** Epoch seconds. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  readonly expiresAt: Date;
}

export interface NewSignInSession extends SignInSession {
  /** SHA-256 of the cookie's value. */
  readonly handleHash: string;
}

/** A session that just ended, and the clients it gave ID tokens to: OpenID Connect Back-Channel Logout 1.0 tells them (docs/signals.md). */
export interface EndedSignInSession {
  readonly sessionId: string;
  readonly subject: string;
  readonly idTokenClientIds: readonly string[];
}

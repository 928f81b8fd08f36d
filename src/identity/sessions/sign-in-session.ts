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

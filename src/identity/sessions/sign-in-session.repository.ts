import type { EndedSignInSession, NewSignInSession, SignInSession } from './sign-in-session';

/** Where sign-in sessions are stored, by the hash of their cookie value; also the DI token. */
export abstract class SignInSessionRepository {
  abstract add(session: NewSignInSession): Promise<void>;
  /** The session, when it exists and has not expired at `now`. */
  abstract findActive(handleHash: string, now: Date): Promise<SignInSession | undefined>;
  /** Ends the session; undefined when there was none (or a concurrent request ended it first). */
  abstract delete(handleHash: string): Promise<EndedSignInSession | undefined>;
  abstract deleteBySessionId(sessionId: string): Promise<EndedSignInSession | undefined>;
  /** Ends every session of the user. */
  abstract deleteBySubject(subject: string): Promise<EndedSignInSession[]>;
  /** Whether the session with this `sid` exists and has not expired at `now`. */
  abstract isActive(sessionId: string, now: Date): Promise<boolean>;
  /** The user's sessions not yet expired at `now`, oldest first, with the clients they gave ID tokens to. */
  abstract findActiveBySubject(subject: string, now: Date): Promise<(SignInSession & EndedSignInSession)[]>;
  /** Records that the session gave an ID token to the client (OpenID Connect Back-Channel Logout 1.0 §2.2). */
  abstract addIdTokenClient(sessionId: string, clientId: string): Promise<void>;
  /**
   * A new sign-in of the session's user within the session (a step-up): the new handle replaces the
   * old one, `authTime` and the methods are the new sign-in's; the `sid` stays. Undefined when the
   * session no longer exists or has expired.
   */
  abstract reauthenticate(
    handleHash: string,
    newHandleHash: string,
    authTime: number,
    methods: readonly string[],
    now: Date,
  ): Promise<SignInSession | undefined>;
  /** Deletes the sessions expired before `cutoff`; returns how many. */
  abstract deleteExpiredBefore(cutoff: Date): Promise<number>;
}

import type { NewSignInSession, SignInSession } from './sign-in-session';

/** Where sign-in sessions are stored, by the hash of their cookie value; also the DI token. */
export abstract class SignInSessionRepository {
  abstract add(session: NewSignInSession): Promise<void>;
  /** The session, when it exists and has not expired at `now`. */
  abstract findActive(handleHash: string, now: Date): Promise<SignInSession | undefined>;
  abstract delete(handleHash: string): Promise<void>;
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

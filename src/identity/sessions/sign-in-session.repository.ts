import type { NewSignInSession, SignInSession } from './sign-in-session';

/** Where sign-in sessions are stored, by the hash of their cookie value; also the DI token. */
export abstract class SignInSessionRepository {
  abstract add(session: NewSignInSession): Promise<void>;
  /** The session, when it exists and has not expired at `now`. */
  abstract findActive(handleHash: string, now: Date): Promise<SignInSession | undefined>;
  abstract delete(handleHash: string): Promise<void>;
  /** Deletes the sessions expired before `cutoff`; returns how many. */
  abstract deleteExpiredBefore(cutoff: Date): Promise<number>;
}

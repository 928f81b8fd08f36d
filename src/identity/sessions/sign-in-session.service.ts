import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { ConfigType } from '../../platform/config/config-slice';
import { tokenLifetimes } from '../../platform/config/config.slices';
import { SeenSet } from '../../platform/cache/seen-set';
import { generateHandle, hashHandle, isHandle } from '../../protocol/opaque-handle';
import type { EndedSignInSession, SignInSession } from './sign-in-session';
import { SignInSessionRepository } from './sign-in-session.repository';

/**
 * Server-side sign-in sessions (docs/browser-sign-in.md): the browser holds a random handle in a
 * cookie, the database holds its hash, so any instance can read the session and none can forge one.
 */
@Injectable()
export class SignInSessionService {
  private readonly idTokenClients = new SeenSet(10_000);

  constructor(
    private readonly repository: SignInSessionRepository,
    @Inject(tokenLifetimes.KEY) private readonly lifetimes: ConfigType<typeof tokenLifetimes>,
  ) {}

  get lifetimeSeconds(): number {
    return this.lifetimes.signInSessionSeconds;
  }

  /** Starts a session for a user who just authenticated; returns the cookie's value with it. */
  async start(subject: string, authenticationMethods: readonly string[]): Promise<{ handle: string; session: SignInSession }> {
    const handle = generateHandle();
    const now = Date.now();
    const session: SignInSession = {
      sessionId: randomBytes(16).toString('base64url'),
      subject,
      authTime: Math.floor(now / 1000),
      authenticationMethods,
      expiresAt: new Date(now + this.lifetimeSeconds * 1000),
    };
    await this.repository.add({ ...session, handleHash: hashHandle(handle) });
    return { handle, session };
  }

  /** The session a cookie value names, if it is still active. */
  async find(handle: string | undefined): Promise<SignInSession | undefined> {
    if (handle === undefined || !isHandle(handle)) return undefined;
    return this.repository.findActive(hashHandle(handle), new Date());
  }

  /**
   * The user signed in again within their session (docs/passkeys.md#step-up): same `sid`, the new
   * sign-in's time and methods, and a new handle, so the cookie changes with the sign-in's strength.
   */
  async reauthenticate(handle: string, authenticationMethods: readonly string[]): Promise<{ handle: string; session: SignInSession } | undefined> {
    if (!isHandle(handle)) return undefined;
    const next = generateHandle();
    const now = new Date();
    const session = await this.repository.reauthenticate(hashHandle(handle), hashHandle(next), Math.floor(now.getTime() / 1000), authenticationMethods, now);
    return session && { handle: next, session };
  }

  /** Ends the session a cookie value names; the ended session, when there was one. */
  async end(handle: string | undefined): Promise<EndedSignInSession | undefined> {
    return handle !== undefined && isHandle(handle) ? this.repository.delete(hashHandle(handle)) : undefined;
  }

  /** Ends a session by its `sid` (an operator's command). */
  endById(sessionId: string): Promise<EndedSignInSession | undefined> {
    return this.repository.deleteBySessionId(sessionId);
  }

  /** Ends every session of a user (a disabled user). */
  endAllOf(subject: string): Promise<EndedSignInSession[]> {
    return this.repository.deleteBySubject(subject);
  }

  /** Whether the session with this `sid` has neither ended nor expired. */
  isActive(sessionId: string): Promise<boolean> {
    return this.repository.isActive(sessionId, new Date());
  }

  activeSessionsOf(subject: string): Promise<(SignInSession & EndedSignInSession)[]> {
    return this.repository.findActiveBySubject(subject, new Date());
  }

  /** The session gave the client an ID token; once per session and client is recorded (docs/signals.md#back-channel-logout). */
  async recordIdTokenClient(sessionId: string, clientId: string): Promise<void> {
    const key = `${sessionId} ${clientId}`;
    if (this.idTokenClients.has(key)) return;
    await this.repository.addIdTokenClient(sessionId, clientId);
    this.idTokenClients.add(key);
  }

  purge(now = new Date()): Promise<number> {
    return this.repository.deleteExpiredBefore(now);
  }
}

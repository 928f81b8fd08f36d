import { randomBytes } from 'node:crypto';
import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import type { PasswordAttempt, PasswordCheck, PasswordCheckResult } from '../../identity/sign-in/password-check';
import { DeviceCookies } from '../../identity/sign-in/device-cookie';
import { PasswordChecksBusy } from '../../identity/sign-in/password-check.queue';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import type { User } from '../../identity/users/user';
import { PasswordSignIn } from './password-sign-in';
import type { SignedIn, SignedInSessions } from './signed-in-sessions';

const alice: User = { subjectId: 'sub-alice', username: 'alice', passwordHash: 'unused', enabled: true, claims: {}, roles: [] };

class FakePasswordCheck implements Pick<PasswordCheck, 'check'> {
  readonly attempts: PasswordAttempt[] = [];
  busy = false;

  async check(attempt: PasswordAttempt): Promise<PasswordCheckResult> {
    this.attempts.push(attempt);
    if (this.busy) throw new PasswordChecksBusy(3);
    return attempt.username === 'alice' && attempt.password === 'right' ? { user: alice } : { refusal: 'invalid_credentials' };
  }
}

class FakeSessions implements Pick<SignedInSessions, 'start'> {
  readonly started: { subject: string; methods: readonly string[]; clientId: string }[] = [];

  async start(user: User, methods: readonly string[], _cookies: string | undefined, clientId: string): Promise<SignedIn> {
    this.started.push({ subject: user.subjectId, methods, clientId });
    const session: SignInSession = { sessionId: 'sid', subject: user.subjectId, authTime: 0, authenticationMethods: methods, expiresAt: new Date(0) };
    return { handle: 'h', session, cookies: ['session=h'] };
  }
}

describe('PasswordSignIn', () => {
  let passwords: FakePasswordCheck;
  let sessions: FakeSessions;
  let audit: RecordingAuditSink;
  const deviceCookies = new DeviceCookies([randomBytes(32)], 86_400, false);
  let signIn: PasswordSignIn;
  beforeEach(() => {
    passwords = new FakePasswordCheck();
    sessions = new FakeSessions();
    audit = new RecordingAuditSink();
    signIn = new PasswordSignIn(passwords, deviceCookies, sessions, audit);
  });
  const attempt = (username: string, password: string, cookies?: string) => ({ username, password, cookies, address: '192.0.2.1', clientId: 'spa' });

  describe('signIn', () => {
    it('refuses a wrong password without a session, audited without the password', async () => {
      await expect(signIn.signIn(attempt('alice', 'guess'))).resolves.toEqual({ outcome: 'failed' });
      expect(sessions.started).toEqual([]);
      expect(audit.events).toEqual([{ name: 'user.sign_in_failed', username: 'alice', clientId: 'spa', address: '192.0.2.1', reason: 'invalid_credentials' }]);
    });

    it('refuses an empty username and over-long credentials like a wrong password, unchecked', async () => {
      for (const [username, password] of [
        ['', 'right'],
        ['a'.repeat(1025), 'right'],
        ['alice', 'p'.repeat(1025)],
      ]) {
        await expect(signIn.signIn(attempt(username, password))).resolves.toEqual({ outcome: 'failed' });
      }
      expect(passwords.attempts).toEqual([]);
      expect(audit.events).toHaveLength(3);
    });

    it('answers busy when hashing is saturated', async () => {
      passwords.busy = true;
      await expect(signIn.signIn(attempt('alice', 'right'))).resolves.toEqual({ outcome: 'busy', retryAfterSeconds: 3 });
    });

    it('starts a pwd session and adds the device cookie for the username', async () => {
      const result = await signIn.signIn(attempt('alice', 'right'));
      expect(result).toEqual({ outcome: 'signed_in', user: alice, signedIn: expect.objectContaining({ handle: 'h' }) });
      expect(sessions.started).toEqual([{ subject: 'sub-alice', methods: ['pwd'], clientId: 'spa' }]);
      const cookies = result.outcome === 'signed_in' ? result.signedIn.cookies : [];
      expect(cookies[0]).toBe('session=h');
      expect(cookies.slice(1)).toEqual(deviceCookies.setCookie('alice').map(() => expect.stringContaining(`${deviceCookies.name}=`)));
    });

    it("counts the attempt for the browser's device when it carries a device cookie for that username", async () => {
      const header = `${deviceCookies.name}=${deviceCookies.issue('alice')}`;
      await signIn.signIn(attempt('alice', 'guess', header));
      await signIn.signIn(attempt('bob', 'guess', header));
      expect(passwords.attempts.map((a) => a.deviceId !== undefined)).toEqual([true, false]);
    });
  });

  describe('check', () => {
    it('verifies without starting a session', async () => {
      await expect(signIn.check(attempt('alice', 'right'))).resolves.toEqual({ outcome: 'verified', user: alice });
      expect(sessions.started).toEqual([]);
    });
  });
});

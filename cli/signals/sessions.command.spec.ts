import type { EndedSignInSession, SignInSession } from '../../src/identity/sessions/sign-in-session';
import { InMemoryUserRepository } from '../../src/identity/users/in-memory-user.repository.fixtures';
import { SessionsCommand } from './sessions.command';

const SESSION: SignInSession & EndedSignInSession = {
  sessionId: 'sid-1',
  subject: 'c-1',
  authTime: 1_800_000_000,
  authenticationMethods: ['pwd'],
  expiresAt: new Date('2027-01-15T08:00:00Z'),
  idTokenClientIds: ['webapp'],
};

describe('SessionsCommand', () => {
  let output: { out: string; err: string };
  let ended: string[];

  function command(): SessionsCommand {
    const users = new InMemoryUserRepository([{ subjectId: 'c-1', username: 'carol', passwordHash: '', enabled: true, claims: {}, roles: [] }]);
    const sessions = { activeSessionsOf: async (subject: string) => (subject === 'c-1' ? [SESSION] : []) };
    const termination = {
      endSession: async (sessionId: string) => (ended.push(sessionId), sessionId === 'sid-1' ? SESSION : undefined),
      endSessionsOf: async (subject: string) => (ended.push(`all of ${subject}`), [SESSION]),
    };
    return new SessionsCommand(users, sessions, termination, { out: (text) => void (output.out += text), err: (text) => void (output.err += text) });
  }

  beforeEach(() => {
    output = { out: '', err: '' };
    ended = [];
  });

  it.each([[[]], [['end']], [['end', 'sid-1', '--user', 'carol']], [['list']], [['frobnicate', 'x']], [['end', 'a', 'b']]])(
    'refuses %j with exit code 2',
    async (argv) => {
      await expect(command().run(argv)).resolves.toBe(2);
      expect(output.err).toContain('Usage:');
      expect(ended).toEqual([]);
    },
  );

  it("lists a user's sessions by username or subject id, with the clients given ID tokens", async () => {
    await expect(command().run(['list', 'carol'])).resolves.toBe(0);
    expect(output.out).toBe(
      'SID    SIGNED_IN                 EXPIRES                   ID_TOKENS_TO\nsid-1  2027-01-15T08:00:00.000Z  2027-01-15T08:00:00.000Z  webapp\n',
    );
    output.out = '';
    await expect(command().run(['list', 'c-1', '--json'])).resolves.toBe(0);
    expect(JSON.parse(output.out)).toEqual([
      { sid: 'sid-1', authTime: '2027-01-15T08:00:00.000Z', expiresAt: '2027-01-15T08:00:00.000Z', idTokenClients: ['webapp'] },
    ]);
    await expect(command().run(['list', 'nobody'])).resolves.toBe(1);
  });

  it('ends one session by sid, and says when there is none', async () => {
    await expect(command().run(['end', 'sid-1'])).resolves.toBe(0);
    expect(output.out).toContain('Ended session sid-1 of c-1; logout tokens queued for the clients it gave ID tokens to (webapp).');
    await expect(command().run(['end', 'sid-2'])).resolves.toBe(1);
    expect(output.err).toContain('no session "sid-2"');
    expect(ended).toEqual(['sid-1', 'sid-2']);
  });

  it('ends every session of a user', async () => {
    await expect(command().run(['end', '--user', 'carol'])).resolves.toBe(0);
    expect(ended).toEqual(['all of c-1']);
    expect(output.out).toBe('Ended 1 session(s) of c-1.\n');
  });
});

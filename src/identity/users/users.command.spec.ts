import { InMemoryUserRepository } from './in-memory-user.repository.fixtures';
import { PasswordHasher } from './password.hasher';
import { UsersCommand, type CommandIo, type UserSignals } from './users.command';

/** Records what the command tells relying parties and APIs; the user `carol` has one session. */
class RecordingSignals implements UserSignals {
  readonly told: string[] = [];

  async credentialChanged(subject: string, change: { credentialType: string; changeType: string }): Promise<void> {
    this.told.push(`credential-change ${subject} ${change.credentialType} ${change.changeType}`);
  }

  async endSessionsOf(subject: string): Promise<readonly unknown[]> {
    this.told.push(`end sessions ${subject}`);
    return ['one session'];
  }
}

describe('UsersCommand', () => {
  const hasher = new PasswordHasher();
  let repository: InMemoryUserRepository;
  let output: { out: string; err: string };
  let passkeys: Map<string, { attachment?: string }[]>;
  let signals: RecordingSignals;

  function command(stdin = '', files: Record<string, string> = {}): UsersCommand {
    const io: CommandIo = {
      readStdin: async () => stdin,
      readFile: async (path) => files[path] ?? Promise.reject(new Error(`ENOENT ${path}`)),
      out: (text) => void (output.out += text),
      err: (text) => void (output.err += text),
    };
    const removal = {
      removeAllOf: async (subject: string) => {
        const removed = passkeys.get(subject) ?? [];
        passkeys.delete(subject);
        return removed;
      },
    };
    return new UsersCommand(repository, hasher, io, signals, removal);
  }

  beforeEach(() => {
    repository = new InMemoryUserRepository();
    output = { out: '', err: '' };
    passkeys = new Map();
    signals = new RecordingSignals();
  });

  describe('usage', () => {
    it.each([[[]], [['add']], [['frobnicate', 'x']], [['add', 'carol', '--bogus']], [['disable', 'a', 'b']]])('refuses %j with exit code 2', async (argv) => {
      await expect(command().run(argv)).resolves.toBe(2);
      expect(output.err).toContain('Usage:');
    });
  });

  describe('a password typed at a terminal', () => {
    /** A terminal on which `typed` are the lines entered, in order; records the prompts shown. */
    function atTerminal(...typed: string[]): { command: UsersCommand; prompts: string[] } {
      const prompts: string[] = [];
      const io: CommandIo = {
        readStdin: () => Promise.reject(new Error('standard input is a terminal: not read to its end')),
        readHiddenLine: async (prompt) => (prompts.push(prompt), typed.shift() ?? ''),
        readFile: () => Promise.reject(new Error('no files')),
        out: (text) => void (output.out += text),
        err: (text) => void (output.err += text),
      };
      return { command: new UsersCommand(repository, hasher, io, signals), prompts };
    }

    it('refuses a short one at once, without asking again', async () => {
      const { command: users, prompts } = atTerminal('short');
      await expect(users.run(['add', 'carol'])).resolves.toBe(1);
      expect(prompts).toEqual(['Password: ']);
      expect(output.err).toContain('the password must be 8–1024 characters');
      expect(repository.users).toEqual([]);
    });

    it('refuses two different ones', async () => {
      await expect(atTerminal('long-enough', 'long-enougH').command.run(['add', 'carol'])).resolves.toBe(1);
      expect(output.err).toContain('the two passwords typed differ');
      expect(repository.users).toEqual([]);
    });

    it('takes the one typed twice', async () => {
      const { command: users, prompts } = atTerminal('long enough', 'long enough');
      await expect(users.run(['add', 'carol'])).resolves.toBe(0);
      expect(prompts).toEqual(['Password: ', 'The same password again: ']);
      await expect(hasher.verify('long enough', repository.users[0].passwordHash)).resolves.toBe(true);
    });
  });

  describe('add', () => {
    it('refuses a password shorter than 8 characters, and never takes one from argv', async () => {
      // docs/users.md: refused (1), not a usage error (2) as a password on the command line is.
      await expect(command('short\n').run(['add', 'carol'])).resolves.toBe(1);
      expect(output.err).toBe('users: the password must be 8–1024 characters (or use --generate-password)\n');
      await expect(command().run(['add', 'carol', '--password', 'long-enough'])).resolves.toBe(2);
      expect(repository.users).toEqual([]);
    });

    it('refuses bad claims and names', async () => {
      await expect(command('long-enough').run(['add', 'carol', '--claims', '{'])).resolves.toBe(2);
      await expect(command('long-enough').run(['add', 'carol', '--claims', '{"sub":"x"}'])).resolves.toBe(2);
      await expect(command('long-enough').run(['add', 'has space'])).resolves.toBe(2);
      expect(repository.users).toEqual([]);
    });

    it('stores the hash of the first line of standard input, with claims and roles', async () => {
      await expect(
        command('long-enough\nignored\n').run(['add', 'carol', '--sub', 'c-1', '--claims', '{"name":"Carol"}', '--role', 'a', '--role', 'b']),
      ).resolves.toBe(0);
      const [carol] = repository.users;
      expect(carol).toMatchObject({ subjectId: 'c-1', username: 'carol', claims: { name: 'Carol' }, roles: ['a', 'b'], enabled: true });
      await expect(hasher.verify('long-enough', carol.passwordHash)).resolves.toBe(true);
      expect(output.out).not.toContain('long-enough');
    });

    it('prints a generated password once, and refuses a second user with the same name', async () => {
      await expect(command().run(['add', 'carol', '--generate-password', '--disabled'])).resolves.toBe(0);
      const generated = /shown once\): (\S+)/.exec(output.out)?.[1] ?? '';
      await expect(hasher.verify(generated, repository.users[0].passwordHash)).resolves.toBe(true);
      expect(repository.users[0].enabled).toBe(false);
      await expect(command('long-enough').run(['add', 'carol'])).resolves.toBe(1);
      expect(repository.users).toHaveLength(1);
    });
  });

  describe('set-password, disable, enable', () => {
    beforeEach(() => command('first-password').run(['add', 'carol']));

    it('changes the password from standard input', async () => {
      await expect(command('second-password').run(['set-password', 'carol'])).resolves.toBe(0);
      await expect(hasher.verify('second-password', repository.users[0].passwordHash)).resolves.toBe(true);
    });

    it('tells receivers of a changed password (CAEP credential-change), and nothing for an unknown user', async () => {
      const sub = repository.users[0].subjectId;
      await expect(command('second-password').run(['set-password', 'carol'])).resolves.toBe(0);
      await expect(command('third-password').run(['set-password', 'nobody'])).resolves.toBe(1);
      expect(signals.told).toEqual([`credential-change ${sub} password create`, `credential-change ${sub} password update`]);
    });

    it("ends a disabled user's sessions, and leaves them to an enabled one", async () => {
      const sub = repository.users[0].subjectId;
      await expect(command().run(['disable', 'carol'])).resolves.toBe(0);
      await expect(command().run(['enable', 'carol'])).resolves.toBe(0);
      await expect(command().run(['disable', 'nobody'])).resolves.toBe(1);
      expect(signals.told.slice(1)).toEqual([`end sessions ${sub}`]);
      expect(output.out).toContain('Ended 1 session(s) of carol.');
    });

    it('disables and enables, and says so when there is no such user', async () => {
      await expect(command().run(['disable', 'carol'])).resolves.toBe(0);
      expect(repository.users[0].enabled).toBe(false);
      await expect(command().run(['enable', 'carol'])).resolves.toBe(0);
      expect(repository.users[0].enabled).toBe(true);
      await expect(command().run(['disable', 'nobody'])).resolves.toBe(1);
      expect(output.err).toContain('no user named nobody');
    });
  });

  describe('import', () => {
    it('adds every good line, reports the others by number, and exits 1 when any was refused', async () => {
      const file = ['{"username":"carol","sub":"c-1"}', '{"username":"carol"}', 'nonsense', '{"username":"dave"}'].join('\n');
      await expect(command('', { 'users.jsonl': file }).run(['import', 'users.jsonl'])).resolves.toBe(1);
      expect(repository.users.map((user) => user.username)).toEqual(['carol', 'dave']);
      expect(output.err).toContain('line 2: username or sub exists already');
      expect(output.err).toContain('line 3: not valid JSON');
      expect(output.out).toContain('Imported 2 user(s); 2 line(s) refused.');
    });

    it('tells receivers of the passwords it sets, not of users without one', async () => {
      const hash = await hasher.hash('imported-password');
      const file = [JSON.stringify({ username: 'carol', sub: 'c-1', password_hash: hash }), '{"username":"dave","sub":"d-1"}'].join('\n');
      await expect(command('', { 'users.jsonl': file }).run(['import', 'users.jsonl'])).resolves.toBe(0);
      expect(signals.told).toEqual(['credential-change c-1 password create']);
    });

    it('reads standard input for -', async () => {
      await expect(command('{"username":"erin"}\n').run(['import', '-'])).resolves.toBe(0);
      expect(repository.users.map((user) => user.username)).toEqual(['erin']);
    });
  });

  describe('remove-passkeys', () => {
    it('says so when there is no such user', async () => {
      await expect(command().run(['remove-passkeys', 'nobody'])).resolves.toBe(1);
      expect(output.err).toContain('no user named nobody');
    });

    it("removes every passkey of the user, and only the user's", async () => {
      await command('first-password').run(['add', 'carol', '--sub', 'c-1']);
      passkeys.set('c-1', [{ attachment: 'platform' }, { attachment: 'cross-platform' }]);
      passkeys.set('d-1', [{}]);
      signals.told.length = 0;
      await expect(command().run(['remove-passkeys', 'carol'])).resolves.toBe(0);
      expect(output.out).toContain('Removed 2 passkey(s) of user carol.');
      expect([...passkeys.keys()]).toEqual(['d-1']);
      // CAEP credential-change for each (docs/signals.md), as the account page sends for one.
      expect(signals.told).toEqual(['credential-change c-1 fido2-platform delete', 'credential-change c-1 fido2-roaming delete']);
    });
  });
});

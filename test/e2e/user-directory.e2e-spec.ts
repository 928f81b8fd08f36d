import { Injectable } from '@nestjs/common';
import type { User } from '../../src/identity/users/user';
import { UserDirectory } from '../../src/identity/users/user-directory';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { demoPrivateJwk, signJwt } from '../support/client-assertions';
import { basic, jwtPayload, postForm, request, requestToken } from '../support/http';
import { API1, TOKEN_EXCHANGE } from '../support/token-lifecycle';

/** An embedding application's own users: two people who exist nowhere in Tollgate's database. */
@Injectable()
class StaffDirectory extends UserDirectory {
  private readonly staff: readonly User[] = [
    {
      subjectId: 'staff-7',
      username: 'grace',
      passwordHash: '',
      enabled: true,
      claims: { name: 'Grace Hopper', email: 'grace@staff.example' },
      roles: ['staff'],
      updatedAt: new Date('2026-02-01T00:00:00Z'),
    },
    { subjectId: 'staff-8', username: 'ivan', passwordHash: '', enabled: false, claims: {}, roles: [], updatedAt: new Date(0) },
  ];
  readonly attempts: string[] = [];
  readonly claimLookups: string[] = [];

  async findBySubjectId(subjectId: string): Promise<User | undefined> {
    return this.staff.find((user) => user.subjectId === subjectId);
  }

  async findByClaim(name: string, value: string): Promise<User | undefined> {
    this.claimLookups.push(`${name}=${value}`);
    const matching = this.staff.filter((user) => user.claims[name] === value);
    return matching.length === 1 ? matching[0] : undefined;
  }

  async authenticate(username: string, password: string): Promise<User | undefined> {
    this.attempts.push(username);
    const user = this.staff.find((candidate) => candidate.username === username);
    return user?.enabled && password === `${username}-staff-password` ? user : undefined;
  }
}

describe('a user directory supplied by the embedding application', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({}, { userDirectory: StaffDirectory });
  });
  afterAll(() => server?.close());

  const signIn = (username: string, password: string) =>
    postForm(
      `${server.url}/connect/token`,
      { grant_type: 'password', username, password, scope: 'openid profile email role' },
      { authorization: basic('frontend', 'frontend-secret') },
    );

  it('signs its users in and serves their claims at UserInfo', async () => {
    const signedIn = await signIn('grace', 'grace-staff-password');
    expect(signedIn.status).toBe(200);
    const userInfo = await request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${signedIn.body.access_token}` } });
    expect({ status: userInfo.status, body: userInfo.body }).toEqual({
      status: 200,
      body: { sub: 'staff-7', name: 'Grace Hopper', email: 'grace@staff.example', role: ['staff'], updated_at: Date.parse('2026-02-01T00:00:00Z') / 1000 },
    });
    expect(server.app.get(UserDirectory)).toBeInstanceOf(StaffDirectory);
    expect((server.app.get(UserDirectory) as StaffDirectory).attempts).toContain('grace');
  });

  it("refuses wrong passwords, its disabled users and the database's users alike", async () => {
    for (const [username, password] of [
      ['grace', 'wrong'],
      ['ivan', 'ivan-staff-password'],
      ['alice', 'alice'],
    ]) {
      const refused = await signIn(username, password);
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
    }
  });

  it("matches the subject of the demo identity provider's token among its users, by the issuer's claim (email)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const exchange = async (email: string) =>
      requestToken(server.url, API1.clientId, API1.secret, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: await signJwt(
          { iss: 'https://idp.demo.example', aud: 'api1', sub: 'idp|7', email, iat: now, exp: now + 120 },
          { key: demoPrivateJwk('demo-idp') },
        ),
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        scope: 'openid api2',
      });
    const exchanged = await exchange('grace@staff.example');
    expect(exchanged.status).toBe(200);
    expect(jwtPayload(exchanged.body.access_token)).toMatchObject({ sub: 'staff-7', act: { client_id: 'api1' } });
    // alice@example.com is a user of Tollgate's own table, which this directory replaces.
    const refused = await exchange('alice@example.com');
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_request' });
    expect((server.app.get(UserDirectory) as StaffDirectory).claimLookups).toEqual(['email=grace@staff.example', 'email=alice@example.com']);
  });
});

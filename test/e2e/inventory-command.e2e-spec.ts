import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ROOT, runToExit, type Exit } from '../support/built-service';
import { sql, startTestServer, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY, type TestServer } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';

const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/**
 * `tollgate clients|resources|issuers|users list|show` (docs/operations.md#seeing-what-exists), run as
 * processes against the run's database (the demo data set and a client added here): tables and JSON,
 * and never a secret, a hash or a private key.
 */
describe('tollgate clients|resources|issuers|users list|show', () => {
  let server: TestServer;
  const clientId = uniqueName('listed');
  const outputs: string[] = [];

  beforeAll(async () => {
    // The server applies the migrations and the demo data set to the run's database.
    [server] = await Promise.all([startTestServer(), ensureBuilt()]);
    await insertClient({
      clientId,
      secrets: [{ secret: 'listed-secret-one', expiresAt: new Date('2099-01-01T00:00:00Z') }, { secret: 'listed-secret-two' }],
      grantTypes: ['client_credentials'],
      scopes: ['api1', 'api2'],
    });
    await sql("UPDATE clients SET client_name = 'Listed \u001b[31m client', require_dpop = true WHERE client_id = $1", [clientId]);
  }, 120_000);
  afterAll(() => server?.close());

  async function tollgate(...argv: string[]): Promise<Exit> {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [TOLLGATE, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exit = await runToExit(child, 60_000);
    outputs.push(exit.stdout, exit.stderr);
    return exit;
  }

  it('lists the clients as a table, with names, authentication, grants and scopes', async () => {
    const { code, stdout, stderr } = await tollgate('clients', 'list');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['CLIENT_ID', 'NAME', 'ENABLED', 'AUTHENTICATION', 'GRANTS', 'SCOPES']);
    expect(lines.find((line) => line.startsWith('webapp '))?.split(/\s{2,}/)).toEqual([
      'webapp',
      'Demo Web App',
      'yes',
      'client_secret',
      'authorization_code,refresh_token,urn:ietf:params:oauth:grant-type:token-exchange',
      'openid profile email api1 offline_access',
    ]);
    expect(
      lines
        .find((line) => line.startsWith('spa '))
        ?.split(/\s{2,}/)
        .slice(0, 4),
    ).toEqual(['spa', 'Demo Single-Page App', 'yes', 'none']);
    // A stored escape sequence is not passed to the terminal.
    expect(lines.find((line) => line.startsWith(`${clientId} `))).toContain('Listed ?[31m client');
  });

  it("shows a client with its secrets' ids and expiry, as text and as JSON", async () => {
    const secrets = await sql<{ id: string }>('SELECT id FROM client_secrets WHERE client_id = $1 ORDER BY expires_at NULLS LAST', [clientId]);
    const text = await tollgate('clients', 'show', clientId);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^client_id: +${clientId}\n`));
    expect(text.stdout).toContain(`secrets:                   ${secrets[0].id} (no description; created `);
    expect(text.stdout).toContain('; expires 2099-01-01T00:00:00.000Z)');
    expect(text.stdout).toContain(`\n  ${secrets[1].id} (no description; created `);
    expect(text.stdout).toMatch(/\nPAR required: +no\nDPoP required: +yes\npasskey sign-in required: +no\n/);

    const json = await tollgate('clients', 'show', clientId, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      clientId,
      clientName: 'Listed \u001b[31m client',
      enabled: true,
      authentication: 'client_secret',
      grantTypes: ['client_credentials'],
      scopes: ['api1', 'api2'],
      requirePushedAuthorizationRequests: false,
      requireDpop: true,
      requirePhr: false,
      secrets: [
        { id: secrets[0].id, description: null, expiresAt: '2099-01-01T00:00:00.000Z', createdAt: expect.any(String) },
        { id: secrets[1].id, description: null, expiresAt: null, createdAt: expect.any(String) },
      ],
    });
    expect(Object.keys(JSON.parse(json.stdout).secrets[0]).sort()).toEqual(['createdAt', 'description', 'expiresAt', 'id']);

    const batch = JSON.parse((await tollgate('clients', 'show', 'batch', '--json')).stdout);
    expect({ authentication: batch.authentication, jwks: batch.jwks }).toEqual({
      authentication: 'private_key_jwt',
      jwks: [{ kid: 'batch-1', kty: 'EC', alg: 'ES256' }],
    });
  });

  it('lists and shows resources, trusted issuers and users, as tables and JSON', async () => {
    const resources = await tollgate('resources', 'list');
    expect(resources.stdout).toMatch(/^NAME +KIND +ENABLED +SCOPES +SERVED_BY +URI +CLAIMS +SELF_REGISTERED\n/);
    expect(resources.stdout).toMatch(/\napi1 +api +yes +api1 +api1 +- +- +closed\n/);
    expect(resources.stdout).toMatch(/\napi3 +api +yes +api3 +- +- +- +closed\n/);
    expect(JSON.parse((await tollgate('resources', 'show', 'api2', '--json')).stdout)).toEqual({
      name: 'api2',
      kind: 'api',
      enabled: true,
      scopes: ['api2'],
      uri: null,
      servedBy: 'api2',
      openToSelfRegistered: false,
      claims: [],
    });

    const issuers = JSON.parse((await tollgate('issuers', 'list', '--json')).stdout);
    expect(issuers.map((issuer: { issuer: string; role: string }) => [issuer.issuer, issuer.role])).toEqual(
      expect.arrayContaining([
        ['https://idp.demo.example', 'subject'],
        ['https://kubernetes.demo.example', 'workload'],
        ['spiffe://demo.example', 'workload'],
      ]),
    );
    const idp = await tollgate('issuers', 'show', 'https://idp.demo.example');
    expect(idp.stdout).toMatch(/\naudience: +api1\n/);
    // Other specs may add clients that trust the demo issuer to the shared database.
    expect(idp.stdout.match(/\ntrusted by: +([^\n]*)\n/)?.[1].split(', ')).toContain('api1');
    // docs/chaining.md: an authorization-grant issuer and a partner authorization server.
    expect(issuers.map((issuer: { issuer: string; role: string }) => [issuer.issuer, issuer.role])).toEqual(
      expect.arrayContaining([
        ['https://enterprise-idp.demo.example', 'authorization-grant'],
        ['https://as.partner.demo.example', 'partner'],
      ]),
    );
    const enterprise = await tollgate('issuers', 'show', 'https://enterprise-idp.demo.example');
    expect(enterprise.stdout).toMatch(/\nuser claim: +email\n/);
    expect(enterprise.stdout).toMatch(/\nmaximum lifetime: +300 s\n/);
    expect(enterprise.stdout).toMatch(/\ntrusted by: +enterprise-agent/);
    const partner = await tollgate('issuers', 'show', 'https://as.partner.demo.example');
    expect(partner.stdout).toMatch(/\nresources: +https:\/\/api\.partner\.demo\.example\/\n/);
    expect(partner.stdout).toContain('webapp (webapp-at-partner there)');

    const users = await tollgate('users', 'list');
    expect(users.stdout).toMatch(/^USERNAME +SUBJECT +ENABLED +ROLES +PASSKEYS\n/);
    expect(users.stdout).toMatch(/\nalice +1 +yes +admin,user +\d+\n/);
    const alice = JSON.parse((await tollgate('users', 'show', 'alice', '--json')).stdout);
    expect(alice).toMatchObject({ subjectId: '1', username: 'alice', enabled: true, roles: ['admin', 'user'], claims: { email: 'alice@example.com' } });
    expect(Object.keys(alice).sort()).toEqual(['claims', 'enabled', 'passkeys', 'roles', 'subjectId', 'updatedAt', 'username']);
  });

  it('shows a user whose stored row is malformed (updated_at infinity, claims not an object, NULLs in roles)', async () => {
    const username = uniqueName('broken');
    await insertUser({ username, password: 'broken-password', claims: {}, roles: ['user'] });
    await sql(`UPDATE users SET updated_at = 'infinity', claims = '"x"'::jsonb, roles = ARRAY['admin', NULL, '']::text[] WHERE username = $1`, [username]);
    const list = await tollgate('users', 'list');
    expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(new RegExp(`\\n${username} +\\S+ +yes +admin +0\\n`));
    const shown = await tollgate('users', 'show', username, '--json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ username, roles: ['admin'], claims: {}, updatedAt: '' });
  });

  it('answers an unknown id with exit code 1 and bad usage with exit code 2', async () => {
    expect(await tollgate('clients', 'show', 'nobody-here')).toEqual({ code: 1, signal: null, stdout: '', stderr: 'clients show: no client "nobody-here"\n' });
    const usage = await tollgate('issuers', 'remove', 'x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: tollgate <clients | resources | issuers | users> list [--json]');
  });

  it('never printed a secret, a secret hash, a password hash or a private key', async () => {
    // Besides what the tests above printed: the other kinds of client (workload, public), users, issuers.
    for (const argv of [
      ['clients', 'show', 'reports'],
      ['clients', 'show', 'spa', '--json'],
      ['users', 'show', 'bob'],
      ['issuers', 'list'],
      ['issuers', 'show', 'spiffe://demo.example', '--json'],
      ['users', 'list', '--json'],
    ])
      expect((await tollgate(...argv)).code).toBe(0);
    const printed = outputs.join('\n');
    const hashes = [
      ...(await sql<{ value: string }>('SELECT value_hash AS value FROM client_secrets')),
      ...(await sql<{ value: string }>('SELECT password_hash AS value FROM users')),
      ...(await sql<{ value: string }>('SELECT private_key AS value FROM signing_keys')),
    ]
      .map(({ value }) => value)
      // Users imported without a password have an empty hash (other specs add some to the shared database).
      .filter((value) => typeof value === 'string' && value !== '');
    expect(hashes.length).toBeGreaterThanOrEqual(10);
    for (const value of hashes) expect(printed).not.toContain(value);
    for (const secret of ['listed-secret-one', 'listed-secret-two', 'webapp-secret', 'm2m-secret']) expect(printed).not.toContain(secret);
    // No private JWK member: the demo JWK Sets are public, and only kid, kty and alg are printed.
    expect(printed).not.toMatch(/"(d|p|q|dp|dq|qi|k|x|y|n)":/);
  }, 120_000);
});

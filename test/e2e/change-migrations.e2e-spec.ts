import { SignJWT } from 'jose';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, type MigrationInterface } from 'typeorm';
import { Browser, pkce } from '../support/browser';
import { ensureBuilt, ROOT, runToExit, type Exit } from '../support/built-service';
import { sql, startTestServer, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, requestToken, type HttpResponse } from '../support/http';
import { servicePrivateKey } from '../support/signing-keys';
import { SCRATCH_ROOT, typeCheck } from '../support/type-check';

const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/**
 * Changing what exists (docs/operations.md#changing-what-exists), over the real command line: the
 * built `tollgate` checks the run's database before writing, the migrations it writes are applied and
 * reverted through TypeORM's migration table as Tollgate applies them, and the service sees each state.
 */
describe('change migrations from the command line', () => {
  let server: TestServer;
  let outDir: string;
  const written: string[] = [];

  beforeAll(async () => {
    [server, outDir] = await Promise.all([
      // No client cache: a migration's effect is seen by the next request.
      startTestServer({ CACHE_TTL_SECONDS: '0' }),
      mkdir(SCRATCH_ROOT, { recursive: true }).then(() => mkdtemp(join(SCRATCH_ROOT, 'change-migrations-'))),
      ensureBuilt(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  });

  function tollgate(...argv: string[]): Promise<Exit> {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [TOLLGATE, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return runToExit(child, 60_000);
  }

  interface Generated extends Exit {
    readonly migration?: new () => MigrationInterface;
  }

  /** Runs a migration command writing into the scratch directory, and loads the class it wrote (if any). */
  async function generate(command: string, ...argv: string[]): Promise<Generated> {
    const before = new Set(await readdir(outDir));
    const exit = await tollgate(command, ...argv, '--out-dir', outDir, '--no-index');
    const files = (await readdir(outDir)).filter((name) => !before.has(name));
    if (files.length === 0) return exit;
    expect(files).toHaveLength(1);
    written.push(join(outDir, files[0]));
    const exported: Record<string, new () => MigrationInterface> = await import(join(outDir, files[0]));
    return { ...exit, migration: Object.values(exported)[0] };
  }

  /** Up, or down of the last one applied, through TypeORM's migration table (one transaction), as Tollgate does. */
  async function migrate(direction: 'up' | 'down', migration: new () => MigrationInterface): Promise<void> {
    const migrator = await new DataSource({ type: 'postgres', url: testDatabaseUrl(), migrations: [migration], poolSize: 1 }).initialize();
    try {
      if (direction === 'up') expect((await migrator.runMigrations({ transaction: 'each' })).map(({ name }) => name)).toEqual([migration.name]);
      else await migrator.undoLastMigration({ transaction: 'each' });
    } finally {
      await migrator.destroy();
    }
  }

  /** The resource catalog is reloaded every second (CACHE_TTL_SECONDS=0): asks until the answer has `status`, for up to 5 s. */
  async function eventuallyStatus(ask: () => Promise<HttpResponse>, status: number): Promise<HttpResponse> {
    let response = await ask();
    for (let attempt = 0; attempt < 25 && response.status !== status; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await ask();
    }
    return response;
  }

  const clientRow = async (clientId: string) =>
    (await sql('SELECT * FROM clients WHERE client_id = $1', [clientId])).map(({ created_at: _created, ...settings }) => settings)[0];
  const workloadIdentities = (clientId: string) =>
    sql('SELECT issuer, subject FROM client_workload_identities WHERE client_id = $1 ORDER BY subject', [clientId]);
  const history = (clientId: string) => sql('SELECT migration FROM client_settings_before_migration WHERE client_id = $1', [clientId]);

  it('changes the scopes of a client: the new scope works at the token endpoint after up, and not after down', async () => {
    const clientId = uniqueName('reporting');
    const created = await generate('client:migration', '--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2');
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    await migrate('up', created.migration!);
    const api1 = () => requestToken(server.url, clientId, secret, { grant_type: 'client_credentials', scope: 'api1' });
    expectTokenError(await api1(), 400, 'invalid_scope');

    const changed = await generate('client:migration', '--client-id', clientId, '--change', '--scope', 'api2 api1');
    expect({ code: changed.code, stdout: changed.stdout }).toEqual({ code: 0, stdout: '' });
    expect(changed.stderr).toContain('ChangeClient');
    await migrate('up', changed.migration!);
    const issued = await api1();
    expect({ status: issued.status, scope: issued.body.scope }).toEqual({ status: 200, scope: 'api1' });

    await migrate('down', changed.migration!);
    expectTokenError(await api1(), 400, 'invalid_scope');
    expect(await sql('SELECT allowed_scopes FROM clients WHERE client_id = $1', [clientId])).toEqual([{ allowed_scopes: ['api2'] }]);
    expect(await history(clientId)).toEqual([]);
    await migrate('down', created.migration!);
  });

  it('refuses, when generating, to create a client that exists (naming --change, printing no secret) or to change one that does not', async () => {
    const existing = await generate('client:migration', '--client-id', 'm2m', '--grant', 'client_credentials', '--scope', 'api1');
    expect(existing).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr:
        'client:migration: Client "m2m" already exists: change it with npm run client:migration -- --client-id m2m --change <the settings to change>, or add a secret with --add-secret\nNothing was written.\n',
    });
    const missing = await generate('client:migration', '--client-id', uniqueName('nobody'), '--change', '--scope', 'api1');
    expect({ code: missing.code, stdout: missing.stdout, migration: missing.migration }).toEqual({ code: 1, stdout: '', migration: undefined });
    expect(missing.stderr).toMatch(/^client:migration: Client "nobody-[^"]+" does not exist: create it with npm run client:migration -- --client-id /);
    const secretless = await generate('client:migration', '--client-id', 'spa', '--change', '--grant', 'client_credentials');
    expect(secretless.code).toBe(1);
    expect(secretless.stderr).toContain('Client "spa" is public: it may not use client_credentials, grants that do not serve public clients');
    // Without the check, the migration itself still refuses when applied.
    const offline = await generate('client:migration', '--client-id', 'm2m', '--grant', 'client_credentials', '--scope', 'api1', '--offline');
    expect(offline.code).toBe(0);
    await expect(migrate('up', offline.migration!)).rejects.toThrow(
      'Client "m2m" already exists: change it with npm run client:migration -- --client-id m2m --change',
    );
  });

  it('changes every other setting of a client at once, and down restores exactly the row and workload identities it replaced', async () => {
    const clientId = uniqueName('browser-app');
    const created = await generate(
      'client:migration',
      '--client-id',
      clientId,
      '--grant',
      'authorization_code',
      '--scope',
      'openid api1',
      '--redirect-uri',
      'https://app.example/cb',
      '--name',
      'First name',
      '--workload',
      'system:serviceaccount:default:browser-app',
      '--workload-issuer',
      'https://kubernetes.demo.example',
    );
    expect(created.code).toBe(0);
    await migrate('up', created.migration!);
    const before = await clientRow(clientId);
    expect(before).toMatchObject({ client_name: 'First name', allowed_grant_types: ['authorization_code'], enabled: true });
    const identitiesBefore = await workloadIdentities(clientId);
    expect(identitiesBefore).toEqual([{ issuer: 'https://kubernetes.demo.example', subject: 'system:serviceaccount:default:browser-app' }]);

    const changed = await generate(
      'client:migration',
      '--client-id',
      clientId,
      '--change',
      '--name',
      'Second name',
      '--grant',
      'authorization_code',
      '--grant',
      'refresh_token',
      '--redirect-uri',
      'https://app.example/callback',
      '--post-logout-redirect-uri',
      'https://app.example/',
      '--consent',
      '--disable',
      '--may-act',
      'api1',
      '--transaction-tokens',
      '--access-token-lifetime',
      '600',
      '--workload',
      'spiffe://demo.example/ns/default/sa/browser-app',
    );
    expect({ code: changed.code, stdout: changed.stdout }).toEqual({ code: 0, stdout: '' });
    await migrate('up', changed.migration!);
    expect(await clientRow(clientId)).toEqual({
      ...before,
      client_name: 'Second name',
      allowed_grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://app.example/callback'],
      post_logout_redirect_uris: ['https://app.example/'],
      require_consent: true,
      enabled: false,
      may_act_client_id: 'api1',
      transaction_tokens: true,
      access_token_lifetime: 600,
    });
    expect(await workloadIdentities(clientId)).toEqual([{ issuer: 'spiffe://demo.example', subject: 'spiffe://demo.example/ns/default/sa/browser-app' }]);

    await migrate('down', changed.migration!);
    expect(await clientRow(clientId)).toEqual(before);
    expect(await workloadIdentities(clientId)).toEqual(identitiesBefore);
    expect(await history(clientId)).toEqual([]);

    const keys = await generate('client:migration', '--client-id', clientId, '--change', '--jwks-uri', 'https://app.example/jwks.json');
    await migrate('up', keys.migration!);
    expect(await clientRow(clientId)).toEqual({ ...before, jwks: null, jwks_uri: 'https://app.example/jwks.json' });
    await migrate('down', keys.migration!);
    expect(await clientRow(clientId)).toEqual(before);

    // --disable alone, on a client that is disabled already: down leaves it disabled.
    await sql('UPDATE clients SET enabled = false WHERE client_id = $1', [clientId]);
    const disabled = await generate('client:migration', '--client-id', clientId, '--disable');
    expect(disabled.stderr).toContain('DisableClient');
    await migrate('up', disabled.migration!);
    await migrate('down', disabled.migration!);
    expect(await sql('SELECT enabled FROM clients WHERE client_id = $1', [clientId])).toEqual([{ enabled: false }]);
    const enabled = await generate('client:migration', '--client-id', clientId, '--enable');
    expect(enabled.stderr).toContain('EnableClient');
    await migrate('up', enabled.migration!);
    expect(await sql('SELECT enabled FROM clients WHERE client_id = $1', [clientId])).toEqual([{ enabled: true }]);
    await migrate('down', enabled.migration!);
    expect(await sql('SELECT enabled FROM clients WHERE client_id = $1', [clientId])).toEqual([{ enabled: false }]);
    await migrate('down', created.migration!);
  });

  it("shows the client's name on the consent page, escaped, and its id when it has none", async () => {
    const clientId = uniqueName('partner');
    const redirectUri = 'http://127.0.0.1:5174/partner-callback';
    const created = await generate(
      'client:migration',
      '--client-id',
      clientId,
      '--grant',
      'authorization_code',
      '--scope',
      'openid api1',
      '--redirect-uri',
      redirectUri,
      '--consent',
    );
    await migrate('up', created.migration!);
    const consentPage = async () => {
      const browser = new Browser();
      const parameters = {
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid api1',
        state: 'state-1',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      };
      const login = await browser.get(`${server.url}/connect/authorize?${new URLSearchParams(parameters)}`);
      expect(login.status).toBe(200);
      const consent = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
      expect(consent.status).toBe(200);
      return /<p class="lead"><strong>(.*)<\/strong> asks to:<\/p>/.exec(await consent.text())?.[1];
    };
    expect(await consentPage()).toBe(clientId);

    const named = await generate('client:migration', '--client-id', clientId, '--change', '--name', '<script>alert("x")</script> */ & Partner');
    expect(named.code).toBe(0);
    await migrate('up', named.migration!);
    expect(await consentPage()).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; */ &amp; Partner');

    await migrate('down', named.migration!);
    expect(await consentPage()).toBe(clientId);
    await migrate('down', created.migration!);
  });

  it('changes the scopes of an API resource and disables it; down restores each; adding one that exists fails when generating', async () => {
    const name = uniqueName('api9');
    const clientId = uniqueName('api9-caller');
    const resource = await generate('resource:migration', '--api', name, '--scope', `${name}.read`);
    expect(resource.code).toBe(0);
    await migrate('up', resource.migration!);
    const client = await generate('client:migration', '--client-id', clientId, '--grant', 'client_credentials', '--scope', `${name}.read ${name}.write`);
    await migrate('up', client.migration!);
    const secret = client.stdout.trim();
    const write = () => requestToken(server.url, clientId, secret, { grant_type: 'client_credentials', scope: `${name}.write` });
    expectTokenError(await write(), 400, 'invalid_scope');

    const again = await generate('resource:migration', '--api', name, '--scope', 'x');
    expect({ code: again.code, stdout: again.stdout, migration: again.migration }).toEqual({ code: 1, stdout: '', migration: undefined });
    expect(again.stderr).toContain(`API resource "${name}" already exists: change it with npm run resource:migration -- --api ${name} --change`);

    const widened = await generate('resource:migration', '--api', name, '--change', '--scope', `${name}.read ${name}.write`);
    expect(widened.code).toBe(0);
    await migrate('up', widened.migration!);
    const issued = await eventuallyStatus(write, 200);
    expect({ status: issued.status, scope: issued.body.scope }).toEqual({ status: 200, scope: `${name}.write` });

    const disabled = await generate('resource:migration', '--api', name, '--disable');
    await migrate('up', disabled.migration!);
    expectTokenError(await eventuallyStatus(write, 400), 400, 'invalid_scope');
    await migrate('down', disabled.migration!);
    expect((await eventuallyStatus(write, 200)).status).toBe(200);

    await migrate('down', widened.migration!);
    expectTokenError(await eventuallyStatus(write, 400), 400, 'invalid_scope');
    expect(await sql('SELECT scopes, enabled FROM api_resources WHERE name = $1', [name])).toEqual([{ scopes: [`${name}.read`], enabled: true }]);
    expect(await sql('SELECT count(*)::int AS n FROM api_resource_settings_before_migration WHERE name = $1', [name])).toEqual([{ n: 0 }]);
    await migrate('down', client.migration!);
    await migrate('down', resource.migration!);
  });

  it("changes an API resource's URI and serving client: the new serving client may delegate tokens addressed to them after up, the old one after down", async () => {
    const name = uniqueName('orders');
    const [oldUri, newUri] = [`https://${name}.example/v1`, `https://${name}.example/v2`];
    const [oldApi, newApi, frontend] = [uniqueName('orders-api'), uniqueName('orders-api-v2'), uniqueName('orders-frontend')];
    for (const clientId of [oldApi, newApi]) {
      await insertClient({ clientId, secrets: [{ secret: `${clientId}-secret` }], grantTypes: ['delegation'], scopes: ['api3'] });
    }
    await insertClient({ clientId: frontend, secrets: [{ secret: 'frontend-secret' }], grantTypes: ['password'], scopes: ['openid', name] });
    const added = await generate('resource:migration', '--api', name, '--scope', name, '--uri', oldUri, '--served-by', oldApi);
    expect(added.code).toBe(0);
    await migrate('up', added.migration!);

    // A user token for the resource is addressed to it by name; the same claims re-signed with the service's key address it by URI.
    const userToken = async (): Promise<string> => {
      const issued = await eventuallyStatus(
        () => requestToken(server.url, frontend, 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope: name }),
        200,
      );
      expect(jwtPayload(issued.body.access_token).aud).toBe(name);
      return issued.body.access_token;
    };
    const addressedTo = async (audience: string): Promise<string> => {
      const token = await userToken();
      const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
      return new SignJWT({ ...jwtPayload(token), aud: audience }).setProtectedHeader(header).sign(await servicePrivateKey(header.kid));
    };
    const delegate = async (clientId: string, audience: string) =>
      requestToken(server.url, clientId, `${clientId}-secret`, { grant_type: 'delegation', token: await addressedTo(audience), scope: 'api3' });
    expect((await delegate(oldApi, oldUri)).status).toBe(200);
    expectTokenError(await delegate(newApi, newUri), 400, 'invalid_grant');

    // A URI another resource has is refused when generating, and again when applied if the check was skipped.
    const taken = await generate('resource:migration', '--api', 'api2', '--change', '--uri', oldUri);
    expect({ code: taken.code, stdout: taken.stdout, migration: taken.migration }).toEqual({ code: 1, stdout: '', migration: undefined });
    expect(taken.stderr).toContain(`another API resource ("${name}") already has the URI ${oldUri}`);
    const duplicate = await generate('resource:migration', '--api', uniqueName('orders-copy'), '--scope', 'x', '--uri', oldUri);
    expect({ code: duplicate.code, migration: duplicate.migration }).toEqual({ code: 1, migration: undefined });
    expect(duplicate.stderr).toContain(`already has the URI ${oldUri}`);
    const offline = await generate('resource:migration', '--api', 'api2', '--change', '--uri', oldUri, '--offline');
    expect(offline.code).toBe(0);
    await expect(migrate('up', offline.migration!)).rejects.toThrow(`another API resource already has the URI ${oldUri}`);
    expect(await sql('SELECT resource_uri FROM api_resources WHERE name = $1', ['api2'])).toEqual([{ resource_uri: null }]);

    const moved = await generate('resource:migration', '--api', name, '--change', '--uri', newUri, '--served-by', newApi);
    expect(moved.code).toBe(0);
    await migrate('up', moved.migration!);
    expect((await eventuallyStatus(() => delegate(newApi, newUri), 200)).status).toBe(200);
    expect((await delegate(newApi, name)).status).toBe(200);
    expectTokenError(await delegate(oldApi, oldUri), 400, 'invalid_grant');
    expectTokenError(await delegate(newApi, oldUri), 400, 'invalid_grant');
    expect(JSON.parse((await tollgate('resources', 'show', name, '--json')).stdout)).toMatchObject({ name, uri: newUri, servedBy: newApi });

    await migrate('down', moved.migration!);
    expect((await eventuallyStatus(() => delegate(oldApi, oldUri), 200)).status).toBe(200);
    expectTokenError(await delegate(newApi, newUri), 400, 'invalid_grant');
    expect(await sql('SELECT resource_uri, serving_client_id FROM api_resources WHERE name = $1', [name])).toEqual([
      { resource_uri: oldUri, serving_client_id: oldApi },
    ]);
    expect(await sql('SELECT count(*)::int AS n FROM api_resource_settings_before_migration WHERE name = $1', [name])).toEqual([{ n: 0 }]);
    await migrate('down', added.migration!);
  });

  it("changes a trusted issuer's keys and description, and disables and enables it; down restores each", async () => {
    const issuer = `https://${uniqueName('cluster')}.example`;
    await writeFile(
      join(outDir, 'cluster.json'),
      JSON.stringify({
        keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
      }),
    );
    const added = await generate('issuer:migration', '--kubernetes', issuer, '--jwks-uri', 'https://keys.example/one', '--description', 'first');
    expect(added.code).toBe(0);
    await migrate('up', added.migration!);
    const row = () => sql('SELECT jwks, jwks_uri, description, enabled FROM trusted_issuers WHERE issuer = $1', [issuer]);
    const before = await row();

    const again = await generate('issuer:migration', '--kubernetes', issuer, '--jwks-uri', 'https://keys.example/two');
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 1, stdout: '' });
    expect(again.stderr).toContain(`Trusted issuer "${issuer}" already exists: change it with npm run issuer:migration -- --change ${issuer}`);
    const notSubject = await generate('issuer:migration', '--change', issuer, '--audience', 'api1');
    expect(notSubject.code).toBe(1);
    expect(notSubject.stderr).toContain('is a workload issuer');

    const changed = await generate('issuer:migration', '--change', issuer, '--jwks-file', join(outDir, 'cluster.json'), '--description', 'second');
    expect(changed.code).toBe(0);
    await migrate('up', changed.migration!);
    expect(await row()).toEqual([{ jwks: { keys: [expect.objectContaining({ kid: 'k1' })] }, jwks_uri: null, description: 'second', enabled: true }]);
    const disabled = await generate('issuer:migration', '--disable', issuer);
    await migrate('up', disabled.migration!);
    expect((await row())[0]).toMatchObject({ enabled: false });
    const enabled = await generate('issuer:migration', '--enable', issuer);
    await migrate('up', enabled.migration!);
    expect((await row())[0]).toMatchObject({ enabled: true });

    await migrate('down', enabled.migration!);
    expect((await row())[0]).toMatchObject({ enabled: false });
    await migrate('down', disabled.migration!);
    await migrate('down', changed.migration!);
    expect(await row()).toEqual(before);
    await migrate('down', added.migration!);
  });

  it('requires DPoP or a passkey sign-in of a client and opens a resource to self-registered clients, each down undoing it', async () => {
    const clientId = uniqueName('bound');
    const created = await generate('client:migration', '--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api1', '--require-dpop');
    expect(created.code).toBe(0);
    await migrate('up', created.migration!);
    const token = () => requestToken(server.url, clientId, created.stdout.trim(), { grant_type: 'client_credentials', scope: 'api1' });
    expectTokenError(await token(), 400, 'invalid_dpop_proof');

    const relaxed = await generate('client:migration', '--client-id', clientId, '--change', '--no-require-dpop');
    expect(relaxed.code).toBe(0);
    await migrate('up', relaxed.migration!);
    const issued = await token();
    expect({ status: issued.status, tokenType: issued.body.token_type }).toEqual({ status: 200, tokenType: 'Bearer' });
    await migrate('down', relaxed.migration!);
    expectTokenError(await token(), 400, 'invalid_dpop_proof');
    await migrate('down', created.migration!);

    // docs/passkeys.md#step-up: a client that requires a passkey sign-in, and the change that relaxes it.
    const phrClient = uniqueName('phr');
    const requirePhr = async () => (await sql('SELECT require_phr FROM clients WHERE client_id = $1', [phrClient]))[0];
    const strict = await generate(
      'client:migration',
      '--client-id',
      phrClient,
      '--public',
      '--grant',
      'authorization_code',
      '--scope',
      'openid',
      '--redirect-uri',
      'https://app.example/cb',
      '--require-phr',
    );
    expect(strict.code).toBe(0);
    await migrate('up', strict.migration!);
    expect(await requirePhr()).toEqual({ require_phr: true });
    const lenient = await generate('client:migration', '--client-id', phrClient, '--change', '--no-require-phr');
    await migrate('up', lenient.migration!);
    expect(await requirePhr()).toEqual({ require_phr: false });
    await migrate('down', lenient.migration!);
    expect(await requirePhr()).toEqual({ require_phr: true });
    await migrate('down', strict.migration!);

    const name = uniqueName('agents');
    const open = async () => (await sql('SELECT open_to_self_registered FROM api_resources WHERE name = $1', [name]))[0];
    const added = await generate('resource:migration', '--api', name, '--scope', `${name}.read`);
    await migrate('up', added.migration!);
    expect(await open()).toEqual({ open_to_self_registered: false });
    const opened = await generate('resource:migration', '--api', name, '--change', '--open-to-self-registered');
    expect(opened.code).toBe(0);
    await migrate('up', opened.migration!);
    expect(await open()).toEqual({ open_to_self_registered: true });
    await migrate('down', opened.migration!);
    expect(await open()).toEqual({ open_to_self_registered: false });
    await migrate('down', added.migration!);
  });

  it('registers a back-channel logout URI with a client, changes and removes it; each down restores the one before; clients show shows it', async () => {
    const clientId = uniqueName('bcl');
    const settings = async () =>
      (await sql('SELECT backchannel_logout_uri, backchannel_logout_session_required FROM clients WHERE client_id = $1', [clientId]))[0];
    const created = await generate(
      'client:migration',
      ...['--client-id', clientId, '--grant', 'authorization_code', '--scope', 'openid', '--redirect-uri', 'https://rp.example/cb'],
      ...['--backchannel-logout-uri', 'https://rp.example/backchannel-logout', '--backchannel-logout-session-required'],
    );
    expect(created.code).toBe(0);
    await migrate('up', created.migration!);
    const first = { backchannel_logout_uri: 'https://rp.example/backchannel-logout', backchannel_logout_session_required: true };
    expect(await settings()).toEqual(first);
    const shown = await tollgate('clients', 'show', clientId);
    expect(shown.stdout).toContain('back-channel logout:       https://rp.example/backchannel-logout (session required)\n');

    const moved = await generate('client:migration', '--client-id', clientId, '--change', '--backchannel-logout-uri', 'https://rp.example/logout/bc');
    await migrate('up', moved.migration!);
    expect(await settings()).toEqual({ ...first, backchannel_logout_uri: 'https://rp.example/logout/bc' });
    const removed = await generate('client:migration', '--client-id', clientId, '--no-backchannel-logout');
    await migrate('up', removed.migration!);
    expect(await settings()).toEqual({ backchannel_logout_uri: null, backchannel_logout_session_required: false });

    await migrate('down', removed.migration!);
    expect(await settings()).toEqual({ ...first, backchannel_logout_uri: 'https://rp.example/logout/bc' });
    await migrate('down', moved.migration!);
    expect(await settings()).toEqual(first);
    await migrate('down', created.migration!);
    expect((await generate('client:migration', '--client-id', clientId, '--change', '--backchannel-logout-uri', 'http://rp.example/bc')).code).toBe(2);
  });

  it('wrote migrations that type-check as the build would compile them', () => {
    expect(written.length).toBeGreaterThan(10);
    expect(typeCheck(written)).toEqual([]);
  });
});

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { runClientMigrationCommand, type CommandIo } from '../../cli/client-migration/client-migration.command';
import { runIssuerMigrationCommand } from '../../cli/issuer-migration/issuer-migration.command';
import { clientAssertion, demoPrivateJwk, demoPublicJwk, JWT_BEARER, JWT_SPIFFE, jwtSvid, serviceAccountToken, signJwt } from '../support/client-assertions';
import { ISSUER, sql, startTestServer, testDatabaseUrl, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, requestToken, userAccessToken } from '../support/http';
import { API1, TOKEN_EXCHANGE } from '../support/token-lifecycle';
import { SCRATCH_ROOT, typeCheck } from '../support/type-check';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;

/**
 * `npm run issuer:migration` and the secretless forms of `npm run client:migration`: the generated
 * migrations apply and let the client authenticate with no secret anywhere, or let the clients
 * that trust a subject issuer exchange its tokens (docs/delegation.md); the last test
 * type-checks every file written, as `npm run typecheck` would once they are in migrations/.
 */
describe('migrations for secretless clients and trusted issuers', () => {
  let server: TestServer;
  let outDir: string;
  let dataSource: DataSource;
  let runner: QueryRunner;

  beforeAll(async () => {
    [server, dataSource, outDir] = await Promise.all([
      startTestServer({ CACHE_TTL_SECONDS: '0' }),
      new DataSource({ type: 'postgres', url: testDatabaseUrl(), poolSize: 1 }).initialize(),
      mkdir(SCRATCH_ROOT, { recursive: true }).then(() => mkdtemp(join(SCRATCH_ROOT, 'secretless-migration-'))),
    ]);
    runner = dataSource.createQueryRunner();
  });
  afterAll(async () => {
    await runner?.release();
    await dataSource?.destroy();
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  });

  async function generate(command: Command, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; migration?: MigrationInterface }> {
    let stdout = '';
    let stderr = '';
    const before = new Set(await readdir(outDir));
    const code = await command([...argv, '--out-dir', outDir, '--no-index'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      cwd: outDir,
    });
    const written = (await readdir(outDir)).filter((name) => !before.has(name) && name.endsWith('.ts'));
    if (written.length === 0) return { code, stdout, stderr };
    const [MigrationClass] = Object.values((await import(join(outDir, written[0]))) as Record<string, new () => MigrationInterface>);
    return { code, stdout, stderr, migration: new MigrationClass() };
  }
  const token = (form: Record<string, string>) => postForm(`${server.url}/connect/token`, { grant_type: 'client_credentials', scope: 'api2', ...form });

  it('refuses bad issuer and secretless arguments with exit code 2', async () => {
    const badIssuer = await generate(runIssuerMigrationCommand, '--spiffe', 'spiffe://Demo.example/x', '--jwks-uri', 'http://keys.example.com/bundle');
    expect(badIssuer.code).toBe(2);
    expect(badIssuer.stderr).toContain('--spiffe "spiffe://Demo.example/x" must be a trust domain ID');
    expect(badIssuer.stderr).toContain('--jwks-uri: the jwks_uri must be https (http only for a loopback address)');
    await writeFile(join(outDir, 'private.json'), JSON.stringify({ keys: [demoPrivateJwk('batch')] }));
    const privateKeys = await generate(
      runClientMigrationCommand,
      '--client-id',
      'x',
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--jwks-file',
      'private.json',
    );
    expect(privateKeys.code).toBe(2);
    expect(privateKeys.stderr).toContain('--jwks-file: the file holds private or symmetric key material');
    const weakKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    await writeFile(join(outDir, 'weak.json'), JSON.stringify({ keys: [weakKey] }));
    const weak = await generate(runClientMigrationCommand, '--client-id', 'x', '--grant', 'client_credentials', '--scope', 'api2', '--jwks-file', 'weak.json');
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('--jwks-file: an RSA key must be at least 2048 bits (RFC 7518 §3.3), not 1024');
    const noIssuer = await generate(
      runClientMigrationCommand,
      '--client-id',
      'x',
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--workload',
      'system:serviceaccount:a:b',
    );
    expect(noIssuer.stderr).toContain('--workload-issuer <https URL> is required with a Kubernetes service account');
    const both = await generate(
      runClientMigrationCommand,
      '--client-id',
      'x',
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--jwks-uri',
      'https://k.example/jwks',
      '--workload',
      'spiffe://a.example/b',
    );
    expect(both.stderr).toContain('--jwks-file, --jwks-uri and --workload cannot be combined');
    expect((await readdir(outDir)).filter((name) => name.endsWith('.ts'))).toEqual([]);
  });

  it('registers a Kubernetes issuer, then a client bound to one of its service accounts, with no secret printed', async () => {
    const issuer = `https://${uniqueName('cluster')}.example`;
    await writeFile(join(outDir, 'cluster.json'), JSON.stringify({ keys: [demoPublicJwk('demo-workloads')] }));
    const clientId = uniqueName('k8s-api');
    const early = await generate(
      runClientMigrationCommand,
      '--client-id',
      clientId,
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--workload',
      'system:serviceaccount:apps:api',
      '--workload-issuer',
      issuer,
    );
    await expect(early.migration!.up(runner)).rejects.toThrow(`Workload issuer "${issuer}" is not registered: add it first with npm run issuer:migration`);
    await sql('DELETE FROM clients WHERE client_id = $1', [clientId]);

    const trusted = await generate(runIssuerMigrationCommand, '--kubernetes', issuer, '--jwks-file', 'cluster.json', '--description', 'test cluster');
    expect(trusted.code).toBe(0);
    await trusted.migration!.up(runner);
    const client = await generate(
      runClientMigrationCommand,
      '--client-id',
      clientId,
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--workload',
      'system:serviceaccount:apps:api',
      '--workload-issuer',
      issuer,
    );
    expect({ code: client.code, stdout: client.stdout }).toEqual({ code: 0, stdout: '' });
    await client.migration!.up(runner);

    const sa = await serviceAccountToken('apps:api', { iss: issuer });
    expect((await token({ client_id: clientId, client_assertion_type: JWT_BEARER, client_assertion: sa })).status).toBe(200);
    expect(await sql('SELECT count(*)::int AS count FROM client_secrets WHERE client_id = $1', [clientId])).toEqual([{ count: 0 }]);

    const disabled = await generate(runIssuerMigrationCommand, '--disable', issuer);
    await disabled.migration!.up(runner);
    expectTokenError(await token({ client_id: clientId, client_assertion_type: JWT_BEARER, client_assertion: sa }), 401, 'invalid_client');
    await disabled.migration!.down(runner);
    await client.migration!.down(runner);
    await trusted.migration!.down(runner);
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuers WHERE issuer = $1', [issuer])).toEqual([{ count: 0 }]);
  });

  it('binds a client to a SPIFFE ID of the demo trust domain', async () => {
    const clientId = uniqueName('svid-api');
    const spiffeId = `spiffe://demo.example/ns/apps/sa/${clientId}`;
    const client = await generate(
      runClientMigrationCommand,
      '--client-id',
      clientId,
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--workload',
      spiffeId,
    );
    await client.migration!.up(runner);
    const response = await token({ client_assertion_type: JWT_SPIFFE, client_assertion: await jwtSvid(spiffeId) });
    expect(response.status).toBe(200);
    await client.migration!.down(runner);
  });

  it('registers a private_key_jwt client from a JWK Set file, and one with a jwks_uri', async () => {
    await writeFile(join(outDir, 'batch.json'), JSON.stringify(demoPublicJwk('batch')));
    const clientId = uniqueName('keyed');
    const client = await generate(
      runClientMigrationCommand,
      '--client-id',
      clientId,
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--jwks-file',
      'batch.json',
    );
    expect({ code: client.code, stdout: client.stdout }).toEqual({ code: 0, stdout: '' });
    await client.migration!.up(runner);
    expect((await token({ client_assertion_type: JWT_BEARER, client_assertion: await clientAssertion(clientId) })).status).toBe(200);
    await client.migration!.down(runner);

    const remote = uniqueName('remote');
    const byUri = await generate(
      runClientMigrationCommand,
      '--client-id',
      remote,
      '--grant',
      'client_credentials',
      '--scope',
      'api2',
      '--jwks-uri',
      'https://keys.example.com/jwks.json',
    );
    await byUri.migration!.up(runner);
    expect(await sql('SELECT jwks, jwks_uri FROM clients WHERE client_id = $1', [remote])).toEqual([
      { jwks: null, jwks_uri: 'https://keys.example.com/jwks.json' },
    ]);
    await byUri.migration!.down(runner);
  });

  it('refuses bad subject issuer arguments with exit code 2', async () => {
    const bad = await generate(
      runIssuerMigrationCommand,
      ...['--subject', 'http://idp.example', '--jwks-uri', 'https://idp.example/jwks', '--audience', 'api 1', '--user-claim', 'exp'],
      ...['--identity-scope', 'openid "profile"', '--trusted-by', 'api1', '--trusted-by', 'not a client!'],
    );
    expect(bad.code).toBe(2);
    for (const problem of [
      '--subject "http://idp.example" must be the https issuer URL of your identity provider',
      '--audience "api 1" must be 1 to 200 printable characters without spaces',
      '--user-claim "exp" describes the token, not the user',
      '--identity-scope ""profile"" is not a valid scope token',
      '--trusted-by "not a client!" must be a client id',
    ]) {
      expect(bad.stderr).toContain(problem);
    }
    const missing = await generate(
      runIssuerMigrationCommand,
      '--subject',
      'https://idp.example',
      '--jwks-uri',
      'https://idp.example/jwks',
      '--user-claim',
      'e mail',
    );
    expect(missing.stderr).toContain('--audience <the aud its tokens carry for Tollgate> is required with --subject');
    expect(missing.stderr).toContain('--user-claim "e mail" must be a claim name');
    const misplaced = await generate(
      runIssuerMigrationCommand,
      '--kubernetes',
      'https://k.example',
      '--jwks-uri',
      'https://k.example/jwks',
      '--trusted-by',
      'api1',
      '--audience',
      'x',
    );
    expect(misplaced.stderr).toContain('--trusted-by goes only with --subject');
    expect(misplaced.stderr).toContain('--audience goes only with --subject');
    expect([bad.migration, missing.migration, misplaced.migration]).toEqual([undefined, undefined, undefined]);
  });

  it('registers your identity provider as a subject issuer that only the clients trusting it may exchange tokens of; down removes it all', async () => {
    const issuer = `https://${uniqueName('idp')}.example`;
    const stranger = { clientId: uniqueName('stranger'), secret: 'stranger-secret' };
    await insertClient({ ...stranger, secrets: [{ secret: stranger.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['openid', 'api2'] });
    await writeFile(join(outDir, 'idp.json'), JSON.stringify({ keys: [demoPublicJwk('demo-idp')] }));
    const subjectArguments = ['--subject', issuer, '--jwks-file', 'idp.json', '--audience', 'api1', '--user-claim', 'email'];

    const unknownScope = await generate(runIssuerMigrationCommand, ...subjectArguments, '--identity-scope', 'openid api2', '--trusted-by', 'api1');
    await expect(unknownScope.migration!.up(runner)).rejects.toThrow('Not identity scopes of this server: api2');
    const unknownClient = await generate(runIssuerMigrationCommand, ...subjectArguments, '--trusted-by', 'api1', '--trusted-by', 'nobody-here');
    await expect(unknownClient.migration!.up(runner)).rejects.toThrow('No such clients to trust the issuer: nobody-here');
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuers WHERE issuer = $1', [issuer])).toEqual([{ count: 0 }]);

    const trusted = await generate(
      runIssuerMigrationCommand,
      ...subjectArguments,
      '--identity-scope',
      'openid',
      '--trusted-by',
      'api1',
      '--description',
      'corporate IdP',
    );
    expect({ code: trusted.code, stdout: trusted.stdout }).toEqual({ code: 0, stdout: '' });
    await trusted.migration!.up(runner);
    expect(
      await sql('SELECT role, kind, subject_audience, subject_user_claim, subject_identity_scopes, description FROM trusted_issuers WHERE issuer = $1', [
        issuer,
      ]),
    ).toEqual([
      {
        role: 'subject',
        kind: 'jwt',
        subject_audience: 'api1',
        subject_user_claim: 'email',
        subject_identity_scopes: ['openid'],
        description: 'corporate IdP',
      },
    ]);

    const now = Math.floor(Date.now() / 1000);
    const subjectToken = await signJwt(
      { iss: issuer, aud: ['api1', stranger.clientId], sub: 'idp|42', email: 'alice@example.com', iat: now, exp: now + 120 },
      { key: demoPrivateJwk('demo-idp') },
    );
    const exchange = (client: { clientId: string; secret: string }, scope: string) =>
      requestToken(server.url, client.clientId, client.secret, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: subjectToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        scope,
      });
    const exchanged = await exchange(API1, 'openid api2');
    expect(exchanged.status).toBe(200);
    expect(jwtPayload(exchanged.body.access_token)).toMatchObject({ sub: '1', scope: 'openid api2', act: { client_id: 'api1' } });
    expectTokenError(await exchange(API1, 'profile api2'), 400, 'invalid_scope');
    expectTokenError(await exchange(stranger, 'openid api2'), 400, 'invalid_request');

    await trusted.migration!.down(runner);
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuers WHERE issuer = $1', [issuer])).toEqual([{ count: 0 }]);
    expect(await sql('SELECT count(*)::int AS count FROM client_subject_issuers WHERE issuer = $1', [issuer])).toEqual([{ count: 0 }]);
    expectTokenError(await exchange(API1, 'openid api2'), 400, 'invalid_request');
  });

  it('changes a registered subject issuer and its trusting clients; down puts back exactly what was there', async () => {
    const demoIdp = 'https://idp.demo.example';
    const stranger = { clientId: uniqueName('newcomer'), secret: 'newcomer-secret' };
    await insertClient({ ...stranger, secrets: [{ secret: stranger.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['openid', 'email', 'api2'] });
    const now = Math.floor(Date.now() / 1000);
    const subjectToken = await signJwt(
      { iss: demoIdp, aud: ['api1', stranger.clientId], sub: 'idp|42', email: 'alice@example.com', iat: now, exp: now + 120 },
      { key: demoPrivateJwk('demo-idp') },
    );
    const exchange = (client: { clientId: string; secret: string }, scope: string) =>
      requestToken(server.url, client.clientId, client.secret, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: subjectToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        scope,
      });
    const settings = () => sql('SELECT subject_audience, subject_user_claim, subject_identity_scopes FROM trusted_issuers WHERE issuer = $1', [demoIdp]);
    const trustingClients = () => sql('SELECT client_id FROM client_subject_issuers WHERE issuer = $1 ORDER BY client_id', [demoIdp]);
    const [settingsBefore, trustingBefore] = [await settings(), await trustingClients()];
    expect(trustingBefore).toContainEqual({ client_id: 'api1' });
    expectTokenError(await exchange(stranger, 'openid api2'), 400, 'invalid_request');

    const unregistered = await generate(runIssuerMigrationCommand, '--subject', 'https://idp.nowhere.example', '--trusted-by', 'api1');
    await expect(unregistered.migration!.up(runner)).rejects.toThrow('Subject issuer "https://idp.nowhere.example" is not registered: add it first');
    const change = await generate(
      runIssuerMigrationCommand,
      '--subject',
      demoIdp,
      '--identity-scope',
      'openid profile email',
      '--trusted-by',
      stranger.clientId,
      '--trusted-by',
      'api1',
    );
    expect({ code: change.code, stdout: change.stdout }).toEqual({ code: 0, stdout: '' });
    await change.migration!.up(runner);
    expect(await settings()).toEqual([{ ...settingsBefore[0], subject_identity_scopes: ['openid', 'profile', 'email'] }]);
    const exchanged = await exchange(stranger, 'openid email api2');
    expect(exchanged.status).toBe(200);
    expect(jwtPayload(exchanged.body.access_token)).toMatchObject({ sub: '1', scope: 'openid email api2', act: { client_id: stranger.clientId } });
    expect((await exchange(API1, 'openid api2')).status).toBe(200);

    await change.migration!.down(runner);
    // api1 trusted the issuer before the change: down keeps it, and takes back only what up added.
    expect([await settings(), await trustingClients()]).toEqual([settingsBefore, trustingBefore]);
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuer_settings_before_migration')).toEqual([{ count: 0 }]);
    expectTokenError(await exchange(stranger, 'openid api2'), 400, 'invalid_request');
    expect((await exchange(API1, 'openid api2')).status).toBe(200);
  });

  it('registers an authorization-grant issuer and a partner authorization server (docs/chaining.md); down removes them', async () => {
    const issuer = `https://${uniqueName('ag')}.example`;
    const partner = `https://${uniqueName('partner')}.example`;
    await writeFile(join(outDir, 'ag.json'), JSON.stringify({ keys: [demoPublicJwk('demo-idp')] }));
    const grants = await generate(
      runIssuerMigrationCommand,
      '--authorization-grant',
      issuer,
      '--jwks-file',
      'ag.json',
      '--trusted-by',
      'api1',
      '--user-claim',
      'email',
      '--max-lifetime',
      '120',
    );
    const partners = await generate(runIssuerMigrationCommand, '--partner', partner, '--client', 'webapp=web-at-partner', '--resource', `${partner}/api`);
    expect([grants.code, partners.code]).toEqual([0, 0]);

    await grants.migration!.up(runner);
    await partners.migration!.up(runner);
    expect(
      await sql(
        `SELECT t.role, a.user_claim, a.max_lifetime_seconds, array(SELECT client_id FROM client_authorization_grant_issuers c WHERE c.issuer = t.issuer) AS trusted_by
           FROM trusted_issuers t JOIN authorization_grant_issuers a USING (issuer) WHERE t.issuer = $1`,
        [issuer],
      ),
    ).toEqual([{ role: 'authorization-grant', user_claim: 'email', max_lifetime_seconds: 120, trusted_by: ['api1'] }]);
    expect(
      await sql(
        `SELECT p.resources, c.client_id, c.partner_client_id FROM partner_authorization_servers p JOIN partner_authorization_server_clients c USING (issuer) WHERE p.issuer = $1`,
        [partner],
      ),
    ).toEqual([{ resources: [`${partner}/api`], client_id: 'webapp', partner_client_id: 'web-at-partner' }]);

    await partners.migration!.down(runner);
    await grants.migration!.down(runner);
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuers WHERE issuer = $1', [issuer])).toEqual([{ count: 0 }]);
    expect(await sql('SELECT count(*)::int AS count FROM partner_authorization_servers WHERE issuer = $1', [partner])).toEqual([{ count: 0 }]);
  });

  it('changes an authorization-grant issuer and its trusting clients; down puts back exactly what was there', async () => {
    const issuer = `https://${uniqueName('ag-change')}.example`;
    const newcomer = { clientId: uniqueName('agent'), secret: 'agent-secret' };
    await insertClient({ ...newcomer, secrets: [{ secret: newcomer.secret }], grantTypes: [JWT_BEARER_GRANT], scopes: ['openid', 'api1'] });
    await writeFile(join(outDir, 'ag-change.json'), JSON.stringify({ keys: [demoPublicJwk('demo-idp')] }));
    const register = await generate(runIssuerMigrationCommand, '--authorization-grant', issuer, '--jwks-file', 'ag-change.json', '--trusted-by', 'api1');
    await register.migration!.up(runner);
    const redeem = async (lifetime: number) => {
      const now = Math.floor(Date.now() / 1000);
      const assertion = await signJwt(
        { iss: issuer, sub: '1', aud: ISSUER, iat: now, exp: now + lifetime, jti: randomUUID() },
        { key: demoPrivateJwk('demo-idp') },
      );
      return requestToken(server.url, newcomer.clientId, newcomer.secret, { grant_type: JWT_BEARER_GRANT, assertion, scope: 'api1' });
    };
    const settings = () =>
      sql(
        `SELECT a.user_claim, a.identity_scopes, a.max_lifetime_seconds, array(SELECT client_id FROM client_authorization_grant_issuers c WHERE c.issuer = a.issuer ORDER BY client_id) AS trusted_by
           FROM authorization_grant_issuers a WHERE a.issuer = $1`,
        [issuer],
      );
    const before = await settings();
    expect(before).toEqual([{ user_claim: 'sub', identity_scopes: [], max_lifetime_seconds: 300, trusted_by: ['api1'] }]);
    expectTokenError(await redeem(60), 400, 'invalid_grant');

    const unregistered = await generate(runIssuerMigrationCommand, '--authorization-grant', 'https://nowhere.example', '--max-lifetime', '60');
    await expect(unregistered.migration!.up(runner)).rejects.toThrow('Authorization-grant issuer "https://nowhere.example" is not registered');
    const change = await generate(
      runIssuerMigrationCommand,
      '--authorization-grant',
      issuer,
      '--max-lifetime',
      '60',
      '--identity-scope',
      'openid',
      '--trusted-by',
      newcomer.clientId,
      '--trusted-by',
      'api1',
    );
    expect({ code: change.code, stdout: change.stdout }).toEqual({ code: 0, stdout: '' });
    await change.migration!.up(runner);
    expect(await settings()).toEqual([{ ...before[0], identity_scopes: ['openid'], max_lifetime_seconds: 60, trusted_by: ['api1', newcomer.clientId].sort() }]);
    const redeemed = await redeem(60);
    expect(redeemed.status).toBe(200);
    expect(jwtPayload(redeemed.body.access_token)).toMatchObject({ sub: '1', client_id: newcomer.clientId, scope: 'api1' });
    const tooLong = await redeem(120);
    expectTokenError(tooLong, 400, 'invalid_grant');
    expect(tooLong.body.error_description).toMatch(/maximum of 60 s/);

    await change.migration!.down(runner);
    // api1 trusted the issuer before the change: down keeps it, and takes back only what up added.
    expect(await settings()).toEqual(before);
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuer_settings_before_migration')).toEqual([{ count: 0 }]);
    expectTokenError(await redeem(60), 400, 'invalid_grant');
    await register.migration!.down(runner);
  });

  it('changes a partner authorization server: clients mapped anew and removed, resources replaced; down puts back exactly what was there', async () => {
    const partner = `https://${uniqueName('partner-change')}.example`;
    const register = await generate(
      runIssuerMigrationCommand,
      '--partner',
      partner,
      '--client',
      'webapp=web-there',
      '--client',
      'api1=api1-there',
      '--resource',
      `${partner}/v1`,
    );
    await register.migration!.up(runner);
    const state = () =>
      sql(
        `SELECT p.resources, p.description, array(SELECT client_id || '=' || partner_client_id FROM partner_authorization_server_clients c WHERE c.issuer = p.issuer ORDER BY client_id) AS clients
           FROM partner_authorization_servers p WHERE p.issuer = $1`,
        [partner],
      );
    const before = await state();
    expect(before).toEqual([{ resources: [`${partner}/v1`], description: null, clients: ['api1=api1-there', 'webapp=web-there'] }]);
    const aliceForApi1 = await userAccessToken(server.url, 'alice', 'openid api1');
    const grant = () =>
      requestToken(server.url, API1.clientId, API1.secret, {
        grant_type: TOKEN_EXCHANGE,
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        audience: partner,
        resource: `${partner}/v2`,
        subject_token: aliceForApi1,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      });
    expectTokenError(await grant(), 400, 'invalid_target');

    const unregistered = await generate(runIssuerMigrationCommand, '--partner', 'https://nowhere.example', '--change', '--description', 'x');
    await expect(unregistered.migration!.up(runner)).rejects.toThrow('Partner "https://nowhere.example" is not registered');
    const change = await generate(
      runIssuerMigrationCommand,
      '--partner',
      partner,
      '--change',
      '--client',
      'api1=api1-renamed',
      '--remove-client',
      'webapp',
      '--resource',
      `${partner}/v2`,
      '--description',
      'moved to v2',
    );
    expect({ code: change.code, stdout: change.stdout }).toEqual({ code: 0, stdout: '' });
    await change.migration!.up(runner);
    expect(await state()).toEqual([{ resources: [`${partner}/v2`], description: 'moved to v2', clients: ['api1=api1-renamed'] }]);
    const granted = await grant();
    expect(granted.status).toBe(200);
    expect(jwtPayload(granted.body.access_token)).toMatchObject({ aud: partner, client_id: 'api1-renamed', resource: `${partner}/v2` });

    await change.migration!.down(runner);
    expect(await state()).toEqual(before);
    expect(await sql('SELECT count(*)::int AS count FROM partner_settings_before_migration')).toEqual([{ count: 0 }]);
    expectTokenError(await grant(), 400, 'invalid_target');
    await register.migration!.down(runner);
  });

  it("type-checks every migration written above with the project's compiler options", async () => {
    const files = (await readdir(outDir)).filter((name) => name.endsWith('.ts'));
    const kinds = files.map(
      (name) =>
        /^\d{13}-(AddClient|AddTrustedIssuer|ChangeSubjectIssuer|DisableTrustedIssuer|AddAuthorizationGrantIssuer|ChangeAuthorizationGrantIssuer|AddPartnerAuthorizationServer|ChangePartnerAuthorizationServer)/.exec(
          name,
        )?.[1],
    );
    expect(new Set(kinds)).toEqual(
      new Set([
        'AddClient',
        'AddTrustedIssuer',
        'ChangeSubjectIssuer',
        'DisableTrustedIssuer',
        'AddAuthorizationGrantIssuer',
        'ChangeAuthorizationGrantIssuer',
        'AddPartnerAuthorizationServer',
        'ChangePartnerAuthorizationServer',
      ]),
    );
    expect(typeCheck(files.map((name) => join(outDir, name)))).toEqual([]);
  });
});

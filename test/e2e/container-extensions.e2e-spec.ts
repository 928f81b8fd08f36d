import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, freePort, ROOT, runToExit, spawnService, startService, stop } from '../support/built-service';
import { sql, TEST_KEY_ENCRYPTION_KEY, testDatabaseUrl } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, secretHash, uniqueName } from '../support/fixtures';
import { jwtPayload, request, requestToken } from '../support/http';

const PARTNER_KEY_GRANT = 'urn:example:params:oauth:grant-type:partner-api-key';
const EXAMPLE = join(ROOT, 'examples/extensions/partner-key.js');
const ISSUER = 'http://tollgate.test';
const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/** A client-creating migration in plain JavaScript, as an extension carries it (docs/extending.md#3-a-container-extension). */
function clientMigration(className: string, clientId: string, grantType: string, secret: string): string {
  return `class ${className} {
  async up(queryRunner) {
    await queryRunner.query(
      'INSERT INTO clients (client_id, enabled, allowed_grant_types, allowed_scopes, access_token_lifetime, refresh_token_lifetime) VALUES ($1, true, $2, $3, 3600, 2592000)',
      [${JSON.stringify(clientId)}, [${JSON.stringify(grantType)}], ['api1']],
    );
    await queryRunner.query('INSERT INTO client_secrets (id, client_id, value_hash) VALUES ($1, $2, $3)', [${JSON.stringify(randomUUID())}, ${JSON.stringify(clientId)}, ${JSON.stringify(secretHash(secret))}]);
  }
  async down(queryRunner) {
    await queryRunner.query('DELETE FROM clients WHERE client_id = $1', [${JSON.stringify(clientId)}]);
  }
}
`;
}

/**
 * TOLLGATE_EXTENSIONS as the container image and `node dist/src/main.js` use it: extension files in a
 * directory outside the repository, with no NODE_PATH, get `tollgate`, `@nestjs/common` and
 * `class-validator` from the service itself; each brings its client by its `migrations`.
 */
describe('container extensions (TOLLGATE_EXTENSIONS)', () => {
  const children = new Set<ChildProcess>();
  let directory: string;

  beforeAll(async () => {
    await ensureBuilt();
    directory = await mkdtemp(join(tmpdir(), 'tollgate-extensions-'));
  }, 180_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  async function environment(extensions: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return {
      DATABASE_URL: testDatabaseUrl(),
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      ISSUER,
      LOG_LEVEL: 'info',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      TOLLGATE_EXTENSIONS: extensions,
      ...extra,
    };
  }

  /** A start that must fail: exit code 1, and exactly one line on stderr, naming `named`; no stack trace anywhere. */
  async function expectOneLineFailure(extensions: string, named: string): Promise<string> {
    const { code, stdout, stderr } = await runToExit(spawnService(await environment(extensions), directory, children), 90_000);
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringContaining(named)]);
    for (const text of ['    at ', '"stack"', 'Require stack']) expect(stdout + stderr).not.toContain(text);
    return lines[0];
  }

  it("serves tokens through a CommonJS and an ES module extension's grants, for the clients their migrations bring", async () => {
    const stamp = Date.now();
    const partner = { clientId: uniqueName('partner-gateway'), secret: randomBytes(16).toString('hex') };
    const probe = { clientId: uniqueName('probe'), secret: randomBytes(16).toString('hex') };
    const apiKey = randomBytes(24).toString('base64url');
    // The example, copied out of the repository, plus the migration that brings its client.
    const commonJs = join(directory, 'partner-key.js');
    await writeFile(
      commonJs,
      `${await readFile(EXAMPLE, 'utf8')}\n${clientMigration(`AddClientPartnerGateway${stamp}`, partner.clientId, PARTNER_KEY_GRANT, partner.secret)}` +
        `module.exports.migrations = [AddClientPartnerGateway${stamp}];\n`,
    );
    // An ES module with named imports and a short grant type name.
    const esModule = join(directory, 'probe.mjs');
    await writeFile(
      esModule,
      `import { Injectable, Module } from '@nestjs/common';
import { OAuthError } from 'tollgate';
class ProbeParameters {}
class ProbeGrantValidator {
  grantType = 'probe';
  parameters = ProbeParameters;
  async validate(_parameters, { scopes }) {
    if (scopes.names.length === 0) throw OAuthError.invalidGrant('the probe needs a scope');
    return { scopes: scopes.names, claims: { probe: true } };
  }
}
Injectable()(ProbeGrantValidator);
export class ProbeModule {}
Module({ providers: [ProbeGrantValidator], exports: [ProbeGrantValidator] })(ProbeModule);
${clientMigration(`AddClientProbe${stamp + 1}`, probe.clientId, 'probe', probe.secret)}
export const migrations = [AddClientProbe${stamp + 1}];
`,
    );
    const env = await environment(`${commonJs},${esModule}`, {
      PARTNER_KEYS: JSON.stringify({ [createHash('sha256').update(apiKey).digest('hex')]: '1' }),
      DYNAMIC_REGISTRATION: 'open',
    });
    const service = await startService(env, children);
    let output: string;
    try {
      const url = `http://127.0.0.1:${env.PORT}`;
      const issued = await requestToken(url, partner.clientId, partner.secret, { grant_type: PARTNER_KEY_GRANT, api_key: apiKey, scope: 'api1' });
      expect({ status: issued.status, body: issued.body }).toEqual({
        status: 200,
        body: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' },
      });
      expectTokenSuccessHeaders(issued);
      const claims = jwtPayload(issued.body.access_token);
      expect(claims).toMatchObject({ iss: ISSUER, sub: '1', client_id: partner.clientId, amr: [PARTNER_KEY_GRANT], partner_key: true });
      expectTokenError(
        await requestToken(url, partner.clientId, partner.secret, { grant_type: PARTNER_KEY_GRANT, api_key: `${apiKey}-unknown` }),
        400,
        'invalid_grant',
      );

      const probed = await requestToken(url, probe.clientId, probe.secret, { grant_type: 'probe', scope: 'api1' });
      expect({ status: probed.status, body: probed.body }).toEqual({ status: 200, body: expect.objectContaining({ scope: 'api1' }) });
      expect(jwtPayload(probed.body.access_token)).toMatchObject({ client_id: probe.clientId, probe: true });
      // Each client may use only its own extension's grant.
      expectTokenError(await requestToken(url, probe.clientId, probe.secret, { grant_type: PARTNER_KEY_GRANT, api_key: apiKey }), 400, 'unauthorized_client');

      const discovery = await request(`${url}/.well-known/openid-configuration`);
      expect(discovery.body.grant_types_supported).toEqual(expect.arrayContaining([PARTNER_KEY_GRANT, 'probe']));

      // docs/agents.md#dynamic-client-registration: a self-registered client gets authorization_code and refresh_token only, never an extension's grant.
      const registered = await request(`${url}/connect/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: ['http://127.0.0.1:8123/callback'],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'probe', PARTNER_KEY_GRANT],
        }),
      });
      expect({ status: registered.status, grant_types: registered.body.grant_types }).toEqual({ status: 201, grant_types: ['authorization_code'] });
    } finally {
      output = await stop(service);
    }
    const records = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { context?: string; msg?: string });
    expect(records.filter((record) => record.context === 'Extensions').map((record) => record.msg)).toEqual([
      `Extension ${commonJs} loaded: grant types ${PARTNER_KEY_GRANT}; 1 migration`,
      `Extension ${esModule} loaded: grant types probe; 1 migration`,
    ]);
    expect(records.find((record) => record.msg?.startsWith('Applied migrations: '))?.msg).toMatch(
      new RegExp(`AddClientPartnerGateway${stamp}, AddClientProbe${stamp + 1}$`),
    );
  }, 150_000);

  it("applies an extension's migrations with `tollgate migrate`, as the start does, and lists them with --check", async () => {
    const stamp = Date.now() + 10;
    const clientId = uniqueName('migrated-partner');
    const extension = join(directory, 'migrated-partner-key.js');
    await writeFile(
      extension,
      `${await readFile(EXAMPLE, 'utf8')}\n${clientMigration(`AddClientMigratedPartner${stamp}`, clientId, PARTNER_KEY_GRANT, 'migrated-secret')}` +
        `module.exports.migrations = [AddClientMigratedPartner${stamp}];\n`,
    );
    const env = await environment(extension, { LOG_LEVEL: 'warn' });
    const migrate = async (...argv: string[]) => runToExit(spawnService(env, directory, children, [process.execPath, TOLLGATE, 'migrate', ...argv]), 60_000);

    expect(await migrate('--check')).toMatchObject({ code: 3, stdout: `Pending: AddClientMigratedPartner${stamp}\n` });
    expect(await sql('SELECT client_id FROM clients WHERE client_id = $1', [clientId])).toEqual([]);
    expect(await migrate()).toMatchObject({ code: 0, stdout: `Applied: AddClientMigratedPartner${stamp}\n` });
    expect(await sql('SELECT allowed_grant_types FROM clients WHERE client_id = $1', [clientId])).toEqual([{ allowed_grant_types: [PARTNER_KEY_GRANT] }]);
    expect(await migrate('--check')).toMatchObject({ code: 0, stdout: 'No pending migration.\n' });

    const missing = join(directory, 'missing.js');
    const failed = await runToExit(
      spawnService({ ...env, TOLLGATE_EXTENSIONS: missing }, directory, children, [process.execPath, TOLLGATE, 'migrate']),
      60_000,
    );
    expect(failed).toMatchObject({ code: 1, stderr: `tollgate migrate: TOLLGATE_EXTENSIONS: ${missing} does not exist\n` });
  }, 120_000);

  it('refuses to start, in one line naming the file, when an extension is missing, throws, exports no Nest module, no validator or bad migrations', async () => {
    const missing = join(directory, 'missing.js');
    expect(await expectOneLineFailure(missing, missing)).toBe(`Tollgate failed to start: TOLLGATE_EXTENSIONS: ${missing} does not exist`);

    const broken = join(directory, 'broken.js');
    await writeFile(broken, "require('a-package-nobody-installed');\n");
    expect(await expectOneLineFailure(broken, broken)).toBe(
      `Tollgate failed to start: TOLLGATE_EXTENSIONS: ${broken} failed to load: Cannot find module 'a-package-nobody-installed'`,
    );

    const empty = join(directory, 'empty.js');
    await writeFile(empty, 'module.exports = { answer: 42 };\n');
    expect(await expectOneLineFailure(empty, empty)).toBe(`Tollgate failed to start: TOLLGATE_EXTENSIONS: ${empty} exports no Nest module`);

    const noValidator = join(directory, 'no-validator.js');
    await writeFile(
      noValidator,
      "const { Injectable, Module } = require('@nestjs/common');\nclass Helper {}\nInjectable()(Helper);\n" +
        'class HelperModule {}\nModule({ providers: [Helper], exports: [Helper] })(HelperModule);\nmodule.exports = { HelperModule };\n',
    );
    expect(await expectOneLineFailure(noValidator, noValidator)).toBe(
      `Tollgate failed to start: TOLLGATE_EXTENSIONS: ${noValidator}: HelperModule exports no grant validator (a class with a validate method) and no token-exchange handler`,
    );

    const badMigrations = join(directory, 'bad-migrations.js');
    await writeFile(badMigrations, `${await readFile(EXAMPLE, 'utf8')}\nmodule.exports.migrations = ['INSERT INTO clients …'];\n`);
    expect(await expectOneLineFailure(badMigrations, badMigrations)).toBe(
      `Tollgate failed to start: TOLLGATE_EXTENSIONS: ${badMigrations}: migrations must be an array of migration classes (each with up and down)`,
    );
  }, 150_000);

  it('refuses to start, in one line naming both files, when two extensions claim one grant type, and one claiming a built-in grant', async () => {
    const first = join(directory, 'partner-key-first.js');
    const second = join(directory, 'partner-key-second.js');
    await writeFile(first, await readFile(EXAMPLE, 'utf8'));
    await writeFile(second, await readFile(EXAMPLE, 'utf8'));
    expect(await expectOneLineFailure(`${first},${second}`, second)).toBe(
      `Tollgate failed to start: Two grant validators handle grant_type "${PARTNER_KEY_GRANT}": PartnerKeyGrantValidator (TOLLGATE_EXTENSIONS ${first}) ` +
        `and PartnerKeyGrantValidator (TOLLGATE_EXTENSIONS ${second}). Register one.`,
    );

    const password = join(directory, 'password.js');
    await writeFile(password, (await readFile(EXAMPLE, 'utf8')).replace(`'${PARTNER_KEY_GRANT}'`, "'password'"));
    expect(await expectOneLineFailure(password, password)).toMatch(
      new RegExp(
        `^Tollgate failed to start: Two grant validators handle grant_type "password": \\w+ and PartnerKeyGrantValidator \\(TOLLGATE_EXTENSIONS ${password}\\)`,
      ),
    );
  }, 150_000);
});

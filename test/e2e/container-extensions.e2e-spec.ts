import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, freePort, ROOT, runToExit, spawnService, startService, stop } from '../support/built-service';
import { TEST_KEY_ENCRYPTION_KEY, testDatabaseUrl } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, requestToken } from '../support/http';

const PARTNER_KEY_GRANT = 'urn:example:params:oauth:grant-type:partner-api-key';
const EXTENSION = join(ROOT, 'examples/extensions/partner-key.js');
const ISSUER = 'http://tollgate.test';

/**
 * TOLLGATE_EXTENSIONS, as the container image uses it: the built service (`node dist/src/main.js`)
 * loads mounted CommonJS modules that export Nest modules providing grant validators. Packages
 * resolve through NODE_PATH, as in the image: the service's dependencies and `tollgate` itself.
 */
describe('container extensions (TOLLGATE_EXTENSIONS)', () => {
  const children = new Set<ChildProcess>();
  let workDirectory: string;
  let nodePath: string;

  beforeAll(async () => {
    await ensureBuilt();
    workDirectory = await mkdtemp(join(tmpdir(), 'tollgate-extensions-'));
    await mkdir(join(workDirectory, 'node-path'));
    await symlink(ROOT, join(workDirectory, 'node-path/tollgate'));
    nodePath = [join(workDirectory, 'node-path'), join(ROOT, 'node_modules')].join(':');
  }, 180_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  });

  async function environment(extensions: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return {
      DATABASE_URL: testDatabaseUrl(),
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      ISSUER,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      NODE_PATH: nodePath,
      TOLLGATE_EXTENSIONS: extensions,
      ...extra,
    };
  }

  async function failedStart(extensions: string): Promise<{ code: number | null; output: string }> {
    const { code, stdout, stderr } = await runToExit(spawnService(await environment(extensions), ROOT, children), 90_000);
    return { code, output: `${stdout}${stderr}` };
  }

  it("serves a token through a mounted extension's grant", async () => {
    const clientId = uniqueName('partner-gateway');
    const secret = randomBytes(16).toString('hex');
    const apiKey = randomBytes(24).toString('base64url');
    const env = await environment(EXTENSION, { PARTNER_KEYS: JSON.stringify({ [createHash('sha256').update(apiKey).digest('hex')]: '1' }) });
    const service = await startService(env, children);
    try {
      // After the start, which applies the migrations to the run's fresh database.
      await insertClient({ clientId, grantTypes: [PARTNER_KEY_GRANT], scopes: ['api1'], secrets: [{ secret }] });
      const url = `http://127.0.0.1:${env.PORT}`;
      const issued = await requestToken(url, clientId, secret, { grant_type: PARTNER_KEY_GRANT, api_key: apiKey, scope: 'api1' });
      expect({ status: issued.status, body: issued.body }).toEqual({
        status: 200,
        body: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' },
      });
      expectTokenSuccessHeaders(issued);
      expect(jwtPayload(issued.body.access_token)).toMatchObject({ iss: ISSUER, sub: '1', client_id: clientId, amr: [PARTNER_KEY_GRANT], partner_key: true });

      const refused = await requestToken(url, clientId, secret, { grant_type: PARTNER_KEY_GRANT, api_key: `${apiKey}-unknown` });
      expectTokenError(refused, 400, 'invalid_grant');

      const discovery = (await fetch(`${url}/.well-known/openid-configuration`).then((response) => response.json())) as { grant_types_supported: string[] };
      expect(discovery.grant_types_supported).toContain(PARTNER_KEY_GRANT);
    } finally {
      await stop(service);
    }
  }, 120_000);

  it('refuses to start when an extension fails to load, naming it', async () => {
    const broken = join(workDirectory, 'broken.js');
    await writeFile(broken, "throw new Error('the partner directory is unreachable');\n");

    const { code, output } = await failedStart(`${EXTENSION},${broken}`);

    expect(code).toBe(1);
    expect(output).toContain(`TOLLGATE_EXTENSIONS: ${broken} failed to load: the partner directory is unreachable`);
  }, 120_000);

  it('refuses to start when an extension path does not exist, naming it', async () => {
    const missing = join(workDirectory, 'missing.js');

    const { code, output } = await failedStart(missing);

    expect(code).toBe(1);
    expect(output).toContain(`TOLLGATE_EXTENSIONS: ${missing} failed to load`);
  }, 120_000);

  it('refuses to start when an extension exports no Nest module with a grant validator, naming it', async () => {
    const empty = join(workDirectory, 'empty.js');
    await writeFile(empty, 'module.exports = { answer: 42 };\n');

    const { code, output } = await failedStart(empty);

    expect(code).toBe(1);
    expect(output).toContain(`TOLLGATE_EXTENSIONS: ${empty} exports no Nest module`);
  }, 120_000);

  it('refuses to start when two extensions serve the same grant type, naming it', async () => {
    const copy = join(workDirectory, 'partner-key-copy.js');
    await copyFile(EXTENSION, copy);

    const { code, output } = await failedStart(`${EXTENSION},${copy}`);

    expect(code).toBe(1);
    expect(output).toContain(`Two grant validators handle grant_type "${PARTNER_KEY_GRANT}"`);
  }, 120_000);
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, runToExit, startService, stop, type Exit } from '../support/built-service';
import { expectTokenError, expectTokenSuccessHeaders } from '../support/fixtures';
import { jwtPayload, request, requestToken } from '../support/http';
import { copyExample, installPackedTollgate, packTollgate } from '../support/packed-tollgate';

const run = promisify(execFile);
const PARTNER_KEY_GRANT = 'urn:example:params:oauth:grant-type:partner-api-key';
const ISSUER = 'http://partner-example.test';

/**
 * examples/custom-grant as its users build it: Tollgate packed with `npm pack`, the tarball installed
 * into a copy of the example, a client registered with the package's `tollgate client:migration`,
 * the example type-checked and compiled with `tsc`, then started on the embedded database.
 */
describe('examples/custom-grant on the packed package', () => {
  let workDirectory: string;
  let child: ChildProcess | undefined;
  let exited: Promise<Exit>;
  let url: string;
  let clientSecret: string;
  const apiKey = randomBytes(24).toString('base64url');

  beforeAll(async () => {
    const started = Date.now();
    workDirectory = await mkdtemp(join(tmpdir(), 'tollgate-custom-grant-'));
    const app = join(workDirectory, 'app');
    const tarball = await packTollgate(workDirectory);
    await copyExample('custom-grant', app);
    await installPackedTollgate(app, tarball);
    const registered = await run(
      join(app, 'node_modules/.bin/tollgate'),
      ['client:migration', '--offline', '--out-dir', 'migrations', '--client-id', 'partner-gateway', '--grant', PARTNER_KEY_GRANT, '--scope', 'api1'],
      // Written before the example has a database: never the one this test process is given.
      { cwd: app, env: { PATH: process.env.PATH ?? '' } },
    );
    clientSecret = registered.stdout.trim();
    await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app, timeout: 120_000 });
    const partnerKeys = { [createHash('sha256').update(apiKey).digest('hex')]: '1' };
    child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        ISSUER,
        DATA_DIR: join(workDirectory, 'data'),
        LOG_LEVEL: 'warn',
        PARTNER_KEYS: JSON.stringify(partnerKeys),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = runToExit(child, 170_000);
    url = await listeningUrl(child, exited);
    // Reported, not asserted: how long packing, installing, compiling and booting took.
    console.log(`custom-grant example ready in ${Date.now() - started} ms`);
  }, 170_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited.catch(() => undefined);
    }
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  });

  it("issues a user's token for a partner's API key through the example's grant", async () => {
    const response = await requestToken(url, 'partner-gateway', clientSecret, { grant_type: PARTNER_KEY_GRANT, api_key: apiKey, scope: 'api1' });

    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' },
    });
    expectTokenSuccessHeaders(response);
    expect(jwtPayload(response.body.access_token)).toMatchObject({
      iss: ISSUER,
      aud: 'api1',
      sub: '1',
      client_id: 'partner-gateway',
      amr: [PARTNER_KEY_GRANT],
      partner_key: true,
    });
  });

  it('answers invalid_grant for an API key it does not know', async () => {
    const response = await requestToken(url, 'partner-gateway', clientSecret, { grant_type: PARTNER_KEY_GRANT, api_key: `${apiKey}-revoked` });

    expectTokenError(response, 400, 'invalid_grant');
    expect(response.body.error_description).toBe('unknown API key');
  });

  it('answers invalid_request without an API key', async () => {
    const response = await requestToken(url, 'partner-gateway', clientSecret, { grant_type: PARTNER_KEY_GRANT });

    expectTokenError(response, 400, 'invalid_request');
  });

  it("the installed package's `tollgate start` loads a container extension from another directory, without NODE_PATH", async () => {
    const extensions = await mkdtemp(join(workDirectory, 'extensions-'));
    const extension = join(extensions, 'partner-key.js');
    // The example the package carries (docs/extending.md links to it), copied where a mounted volume would be.
    await copyFile(join(workDirectory, 'app/node_modules/tollgate/examples/extensions/partner-key.js'), extension);
    const port = String(await freePort());
    const env = { PORT: port, HOST: '127.0.0.1', ISSUER, DATA_DIR: join(workDirectory, 'start-data'), LOG_LEVEL: 'info', TOLLGATE_EXTENSIONS: extension };
    const service = await startService(env, new Set(), [join(workDirectory, 'app/node_modules/.bin/tollgate'), 'start'], join(workDirectory, 'app'));
    try {
      const discovery = await request(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
      expect(discovery.body.grant_types_supported).toContain(PARTNER_KEY_GRANT);
    } finally {
      const output = await stop(service);
      expect(output).toContain(`Extension ${extension} loaded: grant types ${PARTNER_KEY_GRANT}; 0 migrations`);
    }
  }, 120_000);
});

/** The example prints `listening on <url>` once it serves. */
async function listeningUrl(child: ChildProcess, exited: Promise<Exit>): Promise<string> {
  let output = '';
  const listening = new Promise<string>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
  });
  const failed = exited.then((exit) => {
    throw new Error(`the example exited with ${exit.code ?? exit.signal} before it listened:\n${exit.stdout}${exit.stderr}`);
  });
  return Promise.race([listening, failed]);
}

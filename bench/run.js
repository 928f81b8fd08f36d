'use strict';
/**
 * `npm run bench`: starts the built service (dist/src/main.js) in production mode and the bare
 * baseline (bench/baseline.js), drives both with the same autocannon load from a separate process
 * (bench/load.js), and prints per scenario requests/s, p50/p99/max latency, non-2xx responses,
 * the server's RSS after the run, its CPU time per request, the share of Tollgate's token validations
 * its verified-token cache answered, and Tollgate's throughput and CPU cost
 * as ratios of the baseline's. Results also go to bench/results/latest.json. See bench/README.md.
 *
 * Options (flag or env):            default
 *   --duration S   BENCH_DURATION    10      measured seconds per scenario and server
 *   --warmup S     BENCH_WARMUP      3       warm-up seconds before each measured run (not counted; 3 × S
 *                                           before a server's first scenario)
 *   --connections N BENCH_CONNECTIONS 32
 *   --rounds N     BENCH_ROUNDS      5       the measured seconds are split into N alternating rounds
 *                                           (Tollgate, baseline, Tollgate, …) so that noise hits both alike
 *   --alg A        BENCH_ALG / SIGNING_ALG   RS256   RS256 | PS256 | ES256 | EdDSA | both (RS256, ES256) | all
 *   --scenarios L  BENCH_SCENARIOS   all     comma-separated: client_credentials, client_credentials_dpop (a fresh
 *                                           DPoP proof per request), delegation, userinfo (hot:
 *                                           one token presented again and again), delegation_cold, userinfo_cold
 *                                           (a pool of BENCH_POOL distinct tokens, default 12000: more than
 *                                           the service's verified-token cache holds), authorize
 *                                           (mcp-client, alice signed in, consent remembered: a code per
 *                                           request), authorize_metadata_document (the same for a client
 *                                           ID metadata document client, its document cached),
 *                                           authorize_metadata_document_cold (a first-seen document per
 *                                           request), password, jwt_bearer (a pool of distinct assertions)
 *   --no-baseline                    run Tollgate only (no ratios, no design-card limit, no oidc-provider)
 *   --no-design-card                 skip the design-card limit (bench/baseline.js with BASELINE_JWT=nestjs)
 *   --no-floor                       skip the framework floor (bench/nest-floor.js)
 *   --no-oidc-provider               skip node-oidc-provider (bench/oidc-provider-server.mjs)
 *   --profile                        CPU-profile the measured runs of both servers
 *                                    (bench/results/profile-<server>-<alg>-<scenario>.cpuprofile, summaries
 *                                    printed); the profiler slows both, so quote figures from unprofiled runs
 *   --no-pin                         do not pin with taskset
 *   --entry FILE   BENCH_SERVICE_ENTRY dist/src/main.js  the service build to run
 *   --against FILE                   also run this other build ("against") in the same rounds, to
 *                                    compare two builds (e.g. before and after an optimization)
 * DATABASE_URL: run Tollgate on that PostgreSQL (the demo data is seeded into it; KEY_ENCRYPTION_KEY
 * is taken from the env, or derived from DATABASE_URL); unset: the embedded PGlite in a fresh
 * temporary DATA_DIR.
 */
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { summarize, printSummary } = require('./profile-summary');
const { dpopProofs } = require('./dpop-proof');
const { startCommand } = require('./start-command');
const { Browser } = require('./browser');
const { startMetadataDocumentServer, REDIRECT_URI } = require('./metadata-documents');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const DEFAULT_SERVICE_ENTRY = path.join(ROOT, 'dist', 'src', 'main.js');
const BASELINE_ENTRY = path.join(__dirname, 'baseline.js');
const FLOOR_ENTRY = path.join(__dirname, 'nest-floor.js');
const OIDC_PROVIDER_ENTRY = path.join(__dirname, 'oidc-provider-server.mjs');
// oidc-provider's UserInfo takes only opaque tokens without an audience (bench/oidc-provider-server.mjs):
// its cold pool is minted with identity scopes only, which it issues opaque.
const OIDC_PROVIDER_USERINFO_POOL_SCOPE = 'openid profile';
const BOOT_TIMEOUT_MS = 180_000;
// The glibc malloc setting `npm start` and the Dockerfile run the service with (see
// docs/operator-guide.md, "Running it"); both servers get it, so that they are measured as deployed.
const START = startCommand();
const GLIBC_TUNABLES = START.env.GLIBC_TUNABLES;
// And the node options it starts the service with (the young generation's size, see Memory).
const SERVICE_NODE_OPTIONS = START.nodeOptions;

const NO_AUTHORIZE = 'not set up: its sign-in and consent are interactions of its own';
const MCP_CLIENT_CALLBACK = 'http://127.0.0.1:5181/callback';
const FRESH = 'FRESHDOCUMENT';
// The alice session the baselines accept (BASELINE_SESSION): they have no sign-in pages.
const BASELINE_SESSION = crypto.randomBytes(16).toString('base64url');
const PKCE_CHALLENGE = crypto.createHash('sha256').update(crypto.randomBytes(32).toString('base64url')).digest('base64url');

const SCENARIOS = [
  {
    name: 'client_credentials',
    description: 'POST /connect/token grant_type=client_credentials, scope "api1 api2", as m2m (client_secret_basic)',
    prepare: async () => tokenRequest('m2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 api2' }),
  },
  {
    name: 'client_credentials_dpop',
    description: 'client_credentials as m2m with a fresh DPoP proof (ES256) on every request: a DPoP-bound token (the baseline ignores the proof)',
    unsupported: { 'oidc-provider': 'not set up: its token endpoint is /token behind our path rewrite, so the proof htu would not match' },
    prepare: async (baseUrl) => {
      // RFC 9449 §4.3: htu is the advertised token endpoint (the issuer is http://localhost:<port>).
      // The baseline has no discovery and ignores the proof.
      const discovery = await fetch(`${baseUrl}/.well-known/openid-configuration`);
      const htu = discovery.ok ? /** @type {{ token_endpoint: string }} */ (await discovery.json()).token_endpoint : `${baseUrl}/connect/token`;
      const request = tokenRequest('m2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 api2' });
      return { ...request, headers: { ...request.headers, dpop: dpopProofs('POST', htu)() }, dpop: { htm: 'POST', htu } };
    },
  },
  {
    name: 'delegation',
    description: 'POST /connect/token grant_type=delegation, scope "api2", as api1 with a fresh alice token (scope "openid profile api1")',
    prepare: async (baseUrl) =>
      tokenRequest('api1', 'api1-secret', { grant_type: 'delegation', token: await aliceToken(baseUrl, 'openid profile api1'), scope: 'api2' }),
  },
  {
    name: 'userinfo',
    description: 'GET /connect/userinfo with an alice token of scope "openid profile email role" (Bearer)',
    prepare: async (baseUrl) => ({
      method: 'GET',
      path: '/connect/userinfo',
      headers: { authorization: `Bearer ${await aliceToken(baseUrl, 'openid profile email role')}` },
    }),
  },
  {
    name: 'delegation_cold',
    description:
      'delegation as api2 (scope "api3"), each request carrying another of a pool of distinct alice tokens addressed to api2 (no token presented twice in a row)',
    prepare: async (baseUrl) => ({
      ...tokenRequest('api2', 'api2-secret', { grant_type: 'delegation', token: (await tokenPool(baseUrl))[0], scope: 'api3' }),
      pool: (await tokenPool(baseUrl)).map((token) => ({ body: new URLSearchParams({ grant_type: 'delegation', token, scope: 'api3' }).toString() })),
    }),
  },
  {
    name: 'userinfo_cold',
    description: 'as userinfo, but each request carries another of a pool of distinct alice tokens (scope "openid profile api2")',
    prepare: async (baseUrl, server) => {
      const pool = await tokenPool(baseUrl, server?.name === 'oidc-provider' ? OIDC_PROVIDER_USERINFO_POOL_SCOPE : undefined);
      return {
        method: 'GET',
        path: '/connect/userinfo',
        headers: { authorization: `Bearer ${pool[0]}` },
        pool: pool.map((token) => ({ headers: { authorization: `Bearer ${token}` } })),
      };
    },
  },
  // jwt-bearer and ID-JAG redemption (issue 42: keys cached, at most 1.10× delegation's CPU) go here, with their grants (docs/chaining.md).
  {
    name: 'authorize',
    description:
      'GET /connect/authorize (PKCE, response_mode=form_post) as the registered public client mcp-client, scope "openid profile", alice signed in and her consent remembered: a code per request',
    unsupported: { 'oidc-provider': NO_AUTHORIZE },
    prepare: async (baseUrl, server) => authorizeRequest(baseUrl, server, 'mcp-client', MCP_CLIENT_CALLBACK, 'code'),
  },
  {
    name: 'authorize_metadata_document',
    description: 'as authorize, for a client ID metadata document client (bench/metadata-documents.js): its document cached, consent remembered',
    unsupported: { 'oidc-provider': NO_AUTHORIZE },
    prepare: async (baseUrl, server) => authorizeRequest(baseUrl, server, `${(await documentServer()).base}/agent.json`, REDIRECT_URI, 'code'),
  },
  {
    name: 'authorize_metadata_document_cold',
    description:
      'as authorize_metadata_document, but every request names another document, first seen: fetched, validated, then the consent page (the baselines, which ask no consent, answer a code)',
    unsupported: { 'oidc-provider': NO_AUTHORIZE },
    prepare: async (baseUrl, server) => {
      const documents = `${(await documentServer()).base}/cold`;
      const request = await authorizeRequest(baseUrl, server, `${documents}/probe-${crypto.randomUUID()}`, REDIRECT_URI, 'consent');
      return { ...request, fresh: { path: authorizePath(`${documents}/${FRESH}`, REDIRECT_URI), placeholder: FRESH } };
    },
  },
  {
    name: 'password',
    description: 'POST /connect/token grant_type=password (alice/alice, scrypt N=16384), scope "openid profile api1", as frontend',
    minRoundSeconds: 10,
    // Checks queued beyond PASSWORD_HASHING_QUEUE_TIMEOUT_MS (2 s) are answered 503: 32 connections of 63 ms scrypt
    // checks queue 2 s, and so do 16 on a machine where a check on the pinned core takes 130-150 ms.
    connections: 8,
    prepare: async () =>
      tokenRequest('frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid profile api1' }),
  },
  ...require('./jwt-bearer').SCENARIOS,
];

const VALUE_FLAGS = ['duration', 'warmup', 'connections', 'rounds', 'alg', 'scenarios', 'entry', 'against'];
const SWITCHES = ['no-baseline', 'no-design-card', 'no-floor', 'no-oidc-provider', 'profile', 'no-pin', 'instructions', 'no-instructions'];

function parseOptions(argv, env) {
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (VALUE_FLAGS.includes(name) && i + 1 < argv.length) i++;
    else if (!SWITCHES.includes(name)) fail(`unknown or incomplete option ${argv[i]} (see the top of bench/run.js)`);
  }
  const flag = (name) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const number = (name, envName, fallback, min, max) => {
    const raw = flag(name) ?? env[envName];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) fail(`--${name} must be an integer from ${min} to ${max}`);
    return value;
  };
  const alg = flag('alg') ?? env.BENCH_ALG ?? env.SIGNING_ALG ?? 'RS256';
  const algorithms = alg === 'both' ? ['RS256', 'ES256'] : alg === 'all' ? ['RS256', 'PS256', 'ES256', 'EdDSA'] : [alg];
  if (!algorithms.every((name) => ['RS256', 'PS256', 'ES256', 'EdDSA'].includes(name))) fail('--alg must be RS256, PS256, ES256, EdDSA, both or all');
  const scenarioNames = (flag('scenarios') ?? env.BENCH_SCENARIOS ?? SCENARIOS.map((s) => s.name).join(',')).split(',').filter(Boolean);
  const unknown = scenarioNames.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) fail(`unknown scenario(s): ${unknown.join(', ')}`);
  if (scenarioNames.some((name) => name.endsWith('_cold')) && VERIFIED_TOKEN_CACHE_SIZE > 0 && POOL_SIZE <= VERIFIED_TOKEN_CACHE_SIZE) {
    fail(`BENCH_POOL (${POOL_SIZE}) must exceed the verified-token cache (VERIFIED_TOKEN_CACHE_SIZE, ${VERIFIED_TOKEN_CACHE_SIZE}) for the cold scenarios`);
  }
  const profile = argv.includes('--profile');
  return {
    durationSeconds: number('duration', 'BENCH_DURATION', 10, 1, 300),
    warmupSeconds: number('warmup', 'BENCH_WARMUP', 3, 0, 60),
    connections: number('connections', 'BENCH_CONNECTIONS', 32, 1, 512),
    rounds: number('rounds', 'BENCH_ROUNDS', 5, 1, 60),
    algorithms,
    scenarios: SCENARIOS.filter((s) => scenarioNames.includes(s.name)),
    baseline: !argv.includes('--no-baseline'),
    designCard: !argv.includes('--no-baseline') && !argv.includes('--no-design-card'),
    floor: !argv.includes('--no-baseline') && !argv.includes('--no-floor'),
    oidcProvider: !argv.includes('--no-baseline') && !argv.includes('--no-oidc-provider'),
    profile,
    pin: !argv.includes('--no-pin') && hasTaskset() && os.cpus().length >= 2,
    instructions: argv.includes('--instructions') && !argv.includes('--no-instructions'),
    databaseUrl: env.DATABASE_URL || undefined,
    serviceEntry: path.resolve(flag('entry') ?? env.BENCH_SERVICE_ENTRY ?? DEFAULT_SERVICE_ENTRY),
    againstEntry: flag('against') && path.resolve(flag('against')),
  };
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

function hasTaskset() {
  return spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/** Spawns `node args` pinned to `cpu` when pinning, under `options.launcher` (e.g. valgrind) when set. */
function spawnNode(options, cpu, args, spawnOptions) {
  if (options.launcher) return spawn(options.launcher[0], [...options.launcher.slice(1), process.execPath, ...args], spawnOptions);
  return options.pin ? spawn('taskset', ['-c', String(cpu), process.execPath, ...args], spawnOptions) : spawn(process.execPath, args, spawnOptions);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Starts a server process, keeps the tail of its output, and waits until `ready` answers. */
async function startServer(label, options, args, env, readyPath = '/.well-known/openid-configuration') {
  const port = await freePort();
  const profilePrefix = path.join(RESULTS_DIR, `.profile-${label}-${process.pid}`);
  if (options.profile) {
    args = ['-r', path.join(__dirname, 'cpu-profiler.js'), ...args];
    env = { ...env, BENCH_PROFILE_PREFIX: profilePrefix };
  }
  // paired.js and tracing-cost.js start servers too: the folder may not exist yet on a fresh clone.
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, `${label}.log`);
  const log = fs.createWriteStream(logFile);
  const child = spawnNode(options, 0, args, { cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk) => {
    log.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.once('exit', () => (exited = true));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${label} exited during start; output (${logFile}):\n${tail}`);
    try {
      const response = await fetch(baseUrl + readyPath, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      const metricsUrl = env.METRICS_PORT ? `http://127.0.0.1:${env.METRICS_PORT}/metrics` : undefined;
      if (response.status === 200) return { label, child, baseUrl, metricsUrl, logFile, profilePrefix, profiles: 0 };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  child.kill('SIGKILL');
  throw new Error(`${label} did not answer within ${BOOT_TIMEOUT_MS / 1000} s; output:\n${tail}`);
}

async function stopServer(server) {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** The process and its children (the workers of WORKERS > 1), from /proc/<pid>/task/<tid>/children. */
function processTree(pid) {
  let children = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      children = children.concat(fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    }
  } catch {
    // gone, or no children file: the process alone
  }
  return [pid, ...children];
}

/** CPU time (user + system, all threads) a process and its children have used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    let ticks = 0;
    for (const member of processTree(pid)) {
      const stat = fs.readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Waits (at most 5 s) until the process has used no CPU for 100 ms. */
async function settle(pid) {
  const deadline = Date.now() + 5000;
  let last = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await sleep(100);
    const now = cpuSeconds(pid);
    if (!(now > last)) return;
    last = now;
  }
}

function rssMegabytes(pid) {
  try {
    let kilobytes = 0;
    for (const member of processTree(pid)) {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${member}/status`, 'utf8'));
      if (!match) return undefined;
      kilobytes += Number(match[1]);
    }
    return Math.round(kilobytes / 1024);
  } catch {
    return undefined;
  }
}

function basic(clientId, secret) {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

function tokenRequest(clientId, secret, form) {
  return {
    method: 'POST',
    path: '/connect/token',
    headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  };
}

async function send(baseUrl, request, attempt = 1) {
  let response;
  try {
    response = await fetch(baseUrl + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      // bench:instructions allows far longer: under valgrind a password grant's scrypt alone takes seconds.
      signal: AbortSignal.timeout(Number(process.env.BENCH_REQUEST_TIMEOUT_MS) || 30_000),
    });
  } catch (error) {
    // A pooled keep-alive connection the server closed (idle past its keep-alive timeout) just as it was reused.
    if (attempt === 1 && /** @type {any} */ (error)?.cause?.code === 'UND_ERR_SOCKET') return send(baseUrl, request, 2);
    throw error;
  }
  return { status: response.status, body: await response.text() };
}

let documents;
/** The agents' document server, started at the first scenario that needs it. */
function documentServer() {
  documents ??= startMetadataDocumentServer();
  return documents;
}

function authorizePath(clientId, redirectUri) {
  const query = { client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid profile', state: 'bench' };
  return `/connect/authorize?${new URLSearchParams({ ...query, code_challenge: PKCE_CHALLENGE, code_challenge_method: 'S256', response_mode: 'form_post' })}`;
}

const browsers = new Map();
/** Per server: a browser in which alice has signed in (on mcp-client's login page). */
function aliceBrowser(baseUrl) {
  if (!browsers.has(baseUrl)) {
    browsers.set(
      baseUrl,
      (async () => {
        const browser = new Browser();
        const login = await browser.get(baseUrl + authorizePath('mcp-client', MCP_CLIENT_CALLBACK));
        const signedIn = await browser.submit(baseUrl, await login.text(), { username: 'alice', password: 'alice' });
        if (signedIn.status !== 200) throw new Error(`signing alice in answered ${signedIn.status}`);
        return browser;
      })(),
    );
  }
  return browsers.get(baseUrl);
}

/**
 * GET /connect/authorize for `clientId` as alice, checked to answer `expected`: a code (her consent to
 * the client given first, on Tollgate's consent page) or the consent page. The baselines take alice's
 * session as a cookie and answer a code as JSON.
 */
async function authorizeRequest(baseUrl, server, clientId, redirectUri, expected) {
  const path = authorizePath(clientId, redirectUri);
  if (!['tollgate', 'against'].includes(server.name)) return { method: 'GET', path, headers: { cookie: `baseline_session=${BASELINE_SESSION}` } };
  const browser = await aliceBrowser(baseUrl);
  let page = await (await browser.get(baseUrl + path)).text();
  if (expected === 'code' && /name="decision"/.test(page)) page = await (await browser.submit(baseUrl, page, { decision: 'allow' })).text();
  const answered = /name="code"/.test(page) ? 'code' : /name="decision"/.test(page) ? 'consent' : 'another page';
  if (answered !== expected) throw new Error(`authorization for ${clientId} answered ${answered}, not ${expected}: ${page.slice(0, 300)}`);
  return { method: 'GET', path, headers: { cookie: browser.cookieHeader() } };
}

/** A fresh access token for alice from the password grant of the server under test. */
async function aliceToken(baseUrl, scope) {
  const request = tokenRequest('frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope });
  const { status, body } = await send(baseUrl, request);
  if (status !== 200) throw new Error(`password grant for alice answered ${status}: ${body.slice(0, 300)}`);
  return JSON.parse(body).access_token;
}

const POOL_SIZE = Number(process.env.BENCH_POOL) || 12_000;
// Taken in turn, a pool the least-recently-used cache can hold whole would be answered from it
// after the first pass (the "cold" scenarios would measure the hot path). The cache keeps no token
// that comes back only after more distinct tokens than it holds, so a larger pool misses every time,
// provided each pass goes on where the server's previous one stopped (poolOffsets) instead of
// presenting the pool's first tokens again soon after.
const VERIFIED_TOKEN_CACHE_SIZE = Number(process.env.VERIFIED_TOKEN_CACHE_SIZE ?? 10_000);
const pools = new Map();
/** Per server (origin): how far into its pool the cold passes have gone. */
const poolOffsets = new Map();

/**
 * POOL_SIZE distinct alice tokens (scope "openid profile api2") from one server, minted once per server
 * by api1 delegating one password-grant token (minting each with the password grant would cost a scrypt
 * hash apiece). Their `act` is one level deep, and they are addressed to api2, which alone may
 * delegate them again (docs/tokens.md#addressed-to-a-client).
 */
function tokenPool(baseUrl, scope = 'openid profile api2') {
  const key = `${baseUrl} ${scope}`;
  if (!pools.has(key)) pools.set(key, mintPool(baseUrl, scope));
  return pools.get(key);
}

async function mintPool(baseUrl, scope) {
  const subject = await aliceToken(baseUrl, 'openid profile api1');
  const request = tokenRequest('api1', 'api1-secret', { grant_type: 'delegation', token: subject, scope });
  const tokens = [];
  const mint = async () => {
    while (tokens.length < POOL_SIZE) {
      const { status, body } = await send(baseUrl, request);
      if (status !== 200) throw new Error(`minting the token pool: delegation answered ${status}: ${body.slice(0, 300)}`);
      tokens.push(JSON.parse(body).access_token);
    }
  };
  await Promise.all(Array.from({ length: 16 }, mint));
  return tokens;
}

const proofMakers = new WeakMap();
/**
 * The next request of a scenario when driven without bench/load.js (bench/instructions.js, bench/per-request.js),
 * as load.js varies it: the pool's next entry, a fresh DPoP proof, a fresh client_id.
 */
function nextRequest(request, cursor) {
  const variant = request.pool ? request.pool[cursor.next++ % request.pool.length] : {};
  if (request.dpop && !proofMakers.has(request)) proofMakers.set(request, dpopProofs(request.dpop.htm, request.dpop.htu));
  const proof = request.dpop ? { dpop: proofMakers.get(request)() } : {};
  const path = request.fresh ? request.fresh.path.replace(request.fresh.placeholder, crypto.randomBytes(12).toString('base64url')) : request.path;
  return { ...request, path, headers: { ...request.headers, ...variant.headers, ...proof }, body: variant.body ?? request.body };
}

/** One autocannon pass in a child process (pinned to CPU 1); resolves with its figures. */
function runLoad(options, url, request, durationSeconds) {
  let poolFile;
  if (request.pool) {
    poolFile = path.join(RESULTS_DIR, `.pool-${process.pid}-${crypto.createHash('sha256').update(url).digest('hex').slice(0, 8)}.json`);
    if (!fs.existsSync(poolFile)) fs.writeFileSync(poolFile, JSON.stringify(request.pool));
  }
  const origin = new URL(url).origin;
  const poolOffset = poolOffsets.get(origin) ?? 0;
  const spec = {
    url,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections: options.connections,
    durationSeconds,
    poolFile,
    poolOffset,
    dpop: request.dpop,
    fresh: request.fresh,
  };
  return new Promise((resolve, reject) => {
    const child = spawnNode(options, 1, [path.join(__dirname, 'load.js'), JSON.stringify(spec)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + 60) * 1000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`load generator exited with ${code}: ${stderr.slice(-1000)}`));
      const result = JSON.parse(stdout.trim().split('\n').pop() ?? '');
      if (poolFile) poolOffsets.set(origin, poolOffset + result.poolTaken);
      resolve(result);
    });
  });
}

/** Prepares the scenario against one server and checks that one request succeeds. */
async function prepare(server, scenario) {
  const unsupported = scenario.unsupported?.[server.name];
  if (unsupported) return { status: 'n/a', reason: unsupported };
  let request;
  try {
    request = await scenario.prepare(server.baseUrl, server);
  } catch (error) {
    return { status: 'failed', reason: `preparing the scenario failed: ${messageOf(error)}` };
  }
  let probe;
  try {
    probe = await send(server.baseUrl, request);
  } catch (error) {
    return { status: 'failed', reason: `a single request failed: ${messageOf(error)}` };
  }
  if (probe.status === 404 && request.path === '/connect/userinfo') {
    return { status: 'unavailable', reason: 'GET /connect/userinfo answered 404: the endpoint does not exist in this build' };
  }
  if (probe.status !== 200) return { status: 'failed', reason: `a single request answered ${probe.status}: ${probe.body.slice(0, 300)}` };
  return { status: 'ready', request };
}

/**
 * Warms each server up, then measures them in alternating rounds (A B A B …) that together last
 * `durationSeconds` per server, so that load from other processes on the machine falls on both
 * alike. Requests/s = all requests / all measured seconds; p50 and p99 are the medians of the
 * rounds' values, max the largest.
 */
async function measureScenario(options, servers, scenario, first) {
  /** @type {any[]} */
  const prepared = [];
  for (const server of servers) prepared.push({ server, ...(await prepare(server, scenario)) });
  const ready = prepared.filter((entry) => entry.status === 'ready');
  const load = scenario.connections ? { ...options, connections: Math.min(options.connections, scenario.connections) } : options;
  // A freshly started server's first scenario also warms up its JIT (Tollgate's for 7-9 s of load here).
  const warmupSeconds = first ? 3 * options.warmupSeconds : options.warmupSeconds;
  for (const { server, request } of ready) {
    if (warmupSeconds > 0) await runLoad(load, server.baseUrl + request.path, request, warmupSeconds);
    await settle(server.child.pid);
  }
  // Slow scenarios (password: scrypt) need long rounds, or the requests in flight at each round's end dominate.
  const rounds = Math.max(1, Math.min(options.rounds, Math.floor(options.durationSeconds / (scenario.minRoundSeconds ?? 1))));
  const slices = Array.from({ length: rounds }, (_, i) => Math.floor(options.durationSeconds / rounds) + (i < options.durationSeconds % rounds ? 1 : 0));
  for (const entry of ready) {
    entry.rounds = [];
    entry.lookupsBefore = await cacheLookups(entry.server);
  }
  for (const seconds of slices) {
    for (const entry of ready) {
      if (options.profile) entry.server.child.kill('SIGUSR2');
      const cpuBefore = cpuSeconds(entry.server.child.pid);
      const result = await runLoad(load, entry.server.baseUrl + entry.request.path, entry.request, seconds);
      // Requests still in flight when the load stops are finished by the server: wait for that
      // (and count its CPU) so it does not spill into the next server's round.
      await settle(entry.server.child.pid);
      entry.rounds.push({ ...result, cpuSeconds: cpuSeconds(entry.server.child.pid) - cpuBefore });
      if (options.profile) {
        entry.server.child.kill('SIGUSR2');
        await waitForFile(`${entry.server.profilePrefix}.${++entry.server.profiles}.cpuprofile`, 60_000);
      }
    }
  }
  return Promise.all(
    prepared.map(async (entry) => {
      if (entry.status !== 'ready') return { status: entry.status, reason: entry.reason };
      const result = combineRounds(entry.rounds);
      result.cacheHitPercent = cacheHitPercent(entry.lookupsBefore, await cacheLookups(entry.server));
      if (options.profile) result.profile = mergeProfiles(entry.server, entry.rounds.length, `${entry.server.label}-${scenario.name}`);
      const errorFree = result.non2xx === 0 && result.errors === 0 && result.timeouts === 0;
      return { status: errorFree ? 'ok' : 'errors', ...result, rssMb: rssMegabytes(entry.server.child.pid) };
    }),
  );
}

/** The service's verified-token cache counters (hits, misses) from its metrics; undefined for the baseline. */
async function cacheLookups(server) {
  if (!server.metricsUrl) return undefined;
  const text = await (await fetch(server.metricsUrl)).text();
  const count = (result) => Number(new RegExp(`^tollgate_verified_token_cache_lookups_total\\{result="${result}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { hits: count('hit'), misses: count('miss') };
}

/** The share of the measured rounds' token validations answered from the cache; undefined when none validated a token. */
function cacheHitPercent(before, after) {
  if (!before || !after) return undefined;
  const hits = after.hits - before.hits;
  const lookups = hits + after.misses - before.misses;
  return lookups > 0 ? round((100 * hits) / lookups, 1) : undefined;
}

function combineRounds(rounds) {
  const sum = (pick) => rounds.reduce((total, round) => total + pick(round), 0);
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const requests = sum((r) => r.requests);
  const durationSeconds = sum((r) => r.durationSeconds);
  const statusCodes = {};
  for (const round of rounds) for (const [code, count] of Object.entries(round.statusCodes)) statusCodes[code] = (statusCodes[code] || 0) + count;
  return {
    requests,
    durationSeconds: round(durationSeconds, 2),
    requestsPerSecond: round(requests / durationSeconds, 1),
    cpuMicrosPerRequest: round((sum((r) => r.cpuSeconds) * 1e6) / requests, 1),
    rounds: rounds.length,
    roundRequestsPerSecond: rounds.map((r) => Math.round(r.requestsPerSecond)),
    latencyMs: {
      p50: median(rounds.map((r) => r.latencyMs.p50)),
      p99: median(rounds.map((r) => r.latencyMs.p99)),
      max: Math.max(...rounds.map((r) => r.latencyMs.max)),
    },
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
  };
}

/** The rounds' profiles of a server as one .cpuprofile: the parts' trees under one root, samples concatenated. */
function mergeProfiles(server, count, name) {
  const files = Array.from({ length: count }, (_, i) => `${server.profilePrefix}.${server.profiles - count + i + 1}.cpuprofile`);
  /** @type {{ id: number, callFrame: object, hitCount: number, children: number[] }} */
  const root = { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [] };
  /** @type {{ nodes: any[], startTime: number, endTime: number, samples: number[], timeDeltas: number[] }} */
  const merged = { nodes: [root], startTime: 0, endTime: 0, samples: [], timeDeltas: [] };
  let offset = 1;
  for (const file of files) {
    const part = JSON.parse(fs.readFileSync(file, 'utf8'));
    const shift = (id) => id + offset;
    root.children.push(shift(part.nodes[0].id));
    merged.nodes.push(...part.nodes.map((node) => ({ ...node, id: shift(node.id), children: (node.children || []).map(shift) })));
    merged.samples.push(...part.samples.map(shift));
    merged.timeDeltas.push(...part.timeDeltas);
    merged.endTime += part.endTime - part.startTime;
    offset += Math.max(...part.nodes.map((node) => node.id));
    fs.rmSync(file);
  }
  const target = path.join(RESULTS_DIR, `profile-${name}.cpuprofile`);
  fs.writeFileSync(target, JSON.stringify(merged));
  return target;
}

async function waitForFile(file, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} was not written`);
    await sleep(200);
  }
}

/**
 * The environment Tollgate runs with in the benchmark: production mode, the demo data, a fresh
 * temporary DATA_DIR (added to `runDirs`, for deletion) unless DATABASE_URL is set.
 */
function serviceEnvironment(options, algorithm, runDirs) {
  const runDir = options.databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'tollgate-bench-'));
  if (runDir) runDirs.push(runDir);
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    GLIBC_TUNABLES,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    SEED_DEMO: 'true',
    SIGNING_ALG: algorithm,
    // A bench on loopback with the public demo data: production mode's refusals would stop it.
    ALLOW_INSECURE_ISSUER: 'true',
    ALLOW_DEMO_DATA: 'true',
    // Throttling as shipped: quotas on successful requests are off by default (docs/throttling.md).
    // But for first-seen metadata documents (20 per address and window): authorize_metadata_document_cold sends nothing else.
    RATE_LIMIT_METADATA_DOCUMENTS: '0',
    ...(runDir ? { DATA_DIR: runDir } : {}),
  };
  delete env.ISSUER;
  // Production mode refuses the embedded database (docs/configuration.md): on PGlite the service runs as `npm start` does.
  if (!options.databaseUrl) delete env.NODE_ENV;
  if (options.databaseUrl && !env.KEY_ENCRYPTION_KEY) {
    // Production mode on a shared database requires a key-encryption key. Without one given, use
    // one derived from DATABASE_URL, stable across runs so keys sealed by an earlier run still open.
    env.KEY_ENCRYPTION_KEY = Buffer.from(crypto.hkdfSync('sha256', options.databaseUrl, 'tollgate-bench', 'bench key-encryption key', 32)).toString('base64');
  }
  return env;
}

/**
 * On a database that already holds an active key of another algorithm, the service goes on signing
 * with it (SIGNING_ALG is the algorithm of new keys, docs/configuration.md): the column would be mislabelled.
 */
async function checkSigningAlgorithm(server, algorithm) {
  const { status, body } = await send(server.baseUrl, tokenRequest('m2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' }));
  if (status !== 200) throw new Error(`${server.label}: client_credentials answered ${status}: ${body.slice(0, 300)}`);
  const { alg } = JSON.parse(Buffer.from(JSON.parse(body).access_token.split('.')[0], 'base64url').toString());
  if (alg !== algorithm) {
    throw new Error(`${server.label} signs with ${alg}, not ${algorithm}: its database holds an active ${alg} key; bench ${algorithm} on a fresh database`);
  }
}

function baselineEnvironment(algorithm) {
  return { PATH: process.env.PATH, NODE_ENV: 'production', GLIBC_TUNABLES, SIGNING_ALG: algorithm, BASELINE_SESSION };
}

async function benchAlgorithm(options, algorithm) {
  const runDirs = [];
  // METRICS_PORT: the harness reads the verified-token cache's hits and misses (cacheHitPercent).
  const serviceEnv = async () => ({ ...serviceEnvironment(options, algorithm, runDirs), METRICS_PORT: String(await freePort()) });
  const servers = [];
  try {
    servers.push({
      name: 'tollgate',
      ...(await startServer(`tollgate-${algorithm}`, options, [...SERVICE_NODE_OPTIONS, options.serviceEntry], await serviceEnv())),
    });
    if (options.againstEntry) {
      servers.push({
        name: 'against',
        ...(await startServer(`against-${algorithm}`, options, [...SERVICE_NODE_OPTIONS, options.againstEntry], await serviceEnv())),
      });
    }
    for (const server of servers) await checkSigningAlgorithm(server, algorithm);
    if (options.baseline) {
      servers.push({
        name: 'baseline',
        ...(await startServer(`baseline-${algorithm}`, options, [...SERVICE_NODE_OPTIONS, BASELINE_ENTRY], baselineEnvironment(algorithm), '/health')),
      });
    }
    if (options.designCard) {
      // The design-card limit: the bare server signing and verifying through @nestjs/jwt (jose for EdDSA) as Tollgate does.
      const env = { ...baselineEnvironment(algorithm), BASELINE_JWT: 'nestjs' };
      servers.push({ name: 'design', ...(await startServer(`design-${algorithm}`, options, [...SERVICE_NODE_OPTIONS, BASELINE_ENTRY], env, '/health')) });
    }
    if (options.floor) {
      // The framework floor: the design-card limit's handlers behind a NestJS controller and guard on Fastify.
      const env = baselineEnvironment(algorithm);
      servers.push({ name: 'floor', ...(await startServer(`floor-${algorithm}`, options, [...SERVICE_NODE_OPTIONS, FLOOR_ENTRY], env, '/health')) });
    }
    if (options.oidcProvider) {
      servers.push({
        name: 'oidc-provider',
        ...(await startServer(
          `oidc-provider-${algorithm}`,
          options,
          [...SERVICE_NODE_OPTIONS, OIDC_PROVIDER_ENTRY],
          baselineEnvironment(algorithm),
          '/health',
        )),
      });
    }
    const rows = [];
    for (const scenario of options.scenarios) {
      log(`[${algorithm}] ${scenario.name}…`);
      const results = await measureScenario(options, servers, scenario, scenario === options.scenarios[0]);
      const row = { scenario: scenario.name, description: scenario.description };
      servers.forEach((server, i) => (row[server.name] = results[i]));
      row.ratios = {};
      const compare = (a, b) => {
        if (!row[a]?.requestsPerSecond || !row[b]?.requestsPerSecond) return;
        // CPU per request, b over a: the throughput ratio two dedicated cores would show, and far
        // less sensitive to other processes than requests/s on a shared machine.
        row.ratios[`${a}/${b}`] = {
          requestsPerSecond: round(row[a].requestsPerSecond / row[b].requestsPerSecond, 2),
          cpuPerRequest: round(row[b].cpuMicrosPerRequest / row[a].cpuMicrosPerRequest, 2),
        };
      };
      compare('tollgate', 'baseline');
      compare('against', 'baseline');
      compare('tollgate', 'against');
      compare('tollgate', 'design');
      compare('against', 'design');
      compare('design', 'baseline');
      compare('floor', 'design');
      compare('tollgate', 'floor');
      compare('tollgate', 'oidc-provider');
      rows.push(row);
    }
    return {
      algorithm,
      servers: servers.map(({ name, label }) => ({ name, label })),
      serviceRssAfterAllMb: rssMegabytes(servers[0].child.pid),
      scenarios: rows,
    };
  } finally {
    for (const server of servers) await stopServer(server);
    for (const runDir of runDirs) fs.rmSync(runDir, { recursive: true, force: true });
  }
}

function formatTable(run) {
  const reference = run.servers.some((s) => s.name === 'baseline') ? 'baseline' : undefined;
  const header = [
    'scenario',
    'server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'non-2xx',
    'errors',
    'RSS MB',
    'CPU µs/req',
    'cache hits',
    'vs baseline req/s',
    'vs baseline CPU',
    'vs design req/s',
    'vs design CPU',
  ];
  const lines = [];
  const notes = [];
  for (const row of run.scenarios) {
    run.servers.forEach(({ name }, index) => {
      const result = row[name];
      const first = index === 0 ? row.scenario : '';
      if (result.status === 'n/a') {
        lines.push([first, name, `n/a: ${result.reason}`]);
        return;
      }
      if (result.status === 'unavailable' || result.status === 'failed') {
        lines.push([first, name, `${result.status.toUpperCase()}: ${result.reason}`]);
        return;
      }
      const ratio = reference && name !== reference ? row.ratios[`${name}/${reference}`] : undefined;
      const design = ['tollgate', 'against', 'floor'].includes(name) ? row.ratios[`${name}/design`] : undefined;
      lines.push([
        first,
        name,
        String(Math.round(result.requestsPerSecond)),
        String(result.latencyMs.p50),
        String(result.latencyMs.p99),
        String(result.latencyMs.max),
        String(result.non2xx),
        String(result.errors + result.timeouts),
        String(result.rssMb ?? '?'),
        String(Math.round(result.cpuMicrosPerRequest)),
        result.cacheHitPercent === undefined ? '' : `${result.cacheHitPercent}%`,
        ratio ? `${ratio.requestsPerSecond.toFixed(2)}x` : '',
        ratio ? `${ratio.cpuPerRequest.toFixed(2)}x` : '',
        design ? `${design.requestsPerSecond.toFixed(2)}x` : '',
        design ? `${design.cpuPerRequest.toFixed(2)}x` : '',
      ]);
    });
    const oidc = row.ratios['tollgate/oidc-provider'];
    if (oidc)
      notes.push(`${row.scenario}: tollgate vs oidc-provider ${oidc.requestsPerSecond.toFixed(2)}x req/s, ${oidc.cpuPerRequest.toFixed(2)}x CPU per request`);
    const floor = row.ratios['tollgate/floor'];
    if (floor)
      notes.push(
        `${row.scenario}: tollgate vs framework floor ${floor.requestsPerSecond.toFixed(2)}x req/s, ${floor.cpuPerRequest.toFixed(2)}x CPU per request`,
      );
    const versus = row.ratios['tollgate/against'];
    if (versus)
      notes.push(`${row.scenario}: tollgate vs against ${versus.requestsPerSecond.toFixed(2)}x req/s, ${versus.cpuPerRequest.toFixed(2)}x CPU per request`);
  }
  const widths = header.map((title, i) => Math.max(title.length, ...lines.filter((l) => l.length > 3).map((l) => (l[i] ?? '').length)));
  const render = (cells) =>
    cells.length === 3
      ? `${cells[0].padEnd(widths[0])}  ${cells[1].padEnd(widths[1])}  ${cells[2]}`
      : cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [render(header), ...lines.map(render), ...notes].join('\n');
}

function machine() {
  const cpus = os.cpus();
  const nproc = spawnSync('nproc', { encoding: 'utf8' }).stdout?.trim();
  return {
    nproc: Number(nproc) || cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((l) => round(l, 2)),
  };
}

function databaseDescription(url) {
  if (!url) return 'embedded PGlite in a fresh temporary DATA_DIR';
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.host}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

function round(value, digits) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function log(message) {
  process.stderr.write(`${message}\n`);
}

async function main() {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (!fs.existsSync(options.serviceEntry)) fail(`${path.relative(ROOT, options.serviceEntry)} is missing: run npm run build (npm run bench does)`);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const pinning = options.pin
    ? 'server (Tollgate, baseline) pinned to CPU 0, load generator to CPU 1 (taskset)'
    : 'not pinned (no taskset, fewer than 2 CPUs, or --no-pin)';
  const report = {
    date: new Date().toISOString(),
    command: `node bench/run.js ${process.argv.slice(2).join(' ')}`.trim(),
    machine: machine(),
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      service: path.relative(ROOT, options.serviceEntry),
      against: options.againstEntry && path.relative(ROOT, options.againstEntry),
      database: databaseDescription(options.databaseUrl),
      pinning,
      profiled: options.profile,
    },
    /** @type {any[]} */
    runs: [],
  };
  log(
    `bench: ${options.connections} connections, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario and server; ${pinning}; ${report.settings.database}`,
  );
  for (const algorithm of options.algorithms) {
    const run = await benchAlgorithm(options, algorithm);
    report.runs.push(run);
    process.stdout.write(
      `\n${algorithm} — ${options.connections} connections, ${options.durationSeconds} s after ${options.warmupSeconds} s warm-up; ${pinning}\n`,
    );
    process.stdout.write(formatTable(run) + '\n');
    process.stdout.write(`Tollgate RSS after all ${algorithm} runs: ${run.serviceRssAfterAllMb} MB\n`);
    for (const row of run.scenarios) {
      for (const { name: server } of run.servers) {
        const result = row[server];
        if (!result?.profile) continue;
        process.stdout.write(`\nCPU profile of ${server}, ${row.scenario} (${algorithm}): ${path.relative(ROOT, result.profile)}\n`);
        const summary = summarize(JSON.parse(fs.readFileSync(result.profile, 'utf8')), 15);
        result.profileSummary = { ...summary, perRequestMicros: round((summary.busyMs * 1000) / result.requests, 1) };
        process.stdout.write(`busy CPU per request: ${result.profileSummary.perRequestMicros} µs\n`);
        printSummary(summary);
      }
    }
  }
  for (const file of fs.readdirSync(RESULTS_DIR)) if (file.startsWith(`.pool-${process.pid}-`)) fs.rmSync(path.join(RESULTS_DIR, file));
  const latest = path.join(RESULTS_DIR, 'latest.json');
  fs.writeFileSync(latest, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`\n${JSON.stringify(report)}\n\nwritten to ${path.relative(ROOT, latest)}\n`);
  const withErrors = report.runs
    .flatMap((run) => run.scenarios)
    .filter((row) => ['tollgate', 'against', 'baseline', 'design', 'floor', 'oidc-provider'].some((name) => row[name]?.status === 'errors'));
  if (withErrors.length > 0) {
    log(`bench: non-2xx responses or connection errors in: ${withErrors.map((row) => row.scenario).join(', ')}`);
    process.exitCode = 1;
  }
  if (options.instructions) countInstructions(options);
}

/**
 * `--instructions` (as `npm run bench` passes it): the instruction-count view of bench/instructions.js for the
 * same scenarios and the first algorithm it counts, 500 requests after 2,000; said and skipped when it cannot run.
 */
function countInstructions(options) {
  const skip = (why) => process.stdout.write(`\ninstruction counts: skipped, ${why} (npm run bench:instructions)\n`);
  const algorithm = options.algorithms.find((name) => name !== 'EdDSA');
  const scenarios = options.scenarios.map((scenario) => scenario.name).filter((name) => name !== 'password');
  if (!options.databaseUrl) return skip('they need DATABASE_URL: the embedded PGlite takes minutes to start under valgrind');
  if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) return skip('valgrind is not installed');
  if (!algorithm || scenarios.length === 0) return skip('no scenario or algorithm they count (EdDSA and password are not)');
  process.stdout.write(`\nInstruction counts (valgrind callgrind, ${algorithm}, bench/instructions.js):\n`);
  const args = ['--scenarios', scenarios.join(','), '--alg', algorithm, '--requests', '500', '--warmup', '2000'];
  const counted = spawnSync(process.execPath, [path.join(__dirname, 'instructions.js'), ...args], { stdio: 'inherit' });
  if (counted.status !== 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`bench: ${error.stack || error.message}`);
    process.exit(1);
  });
}

module.exports = {
  SCENARIOS,
  GLIBC_TUNABLES,
  SERVICE_NODE_OPTIONS,
  parseOptions,
  combineRounds,
  formatTable,
  startServer,
  stopServer,
  prepare,
  send,
  nextRequest,
  runLoad,
  settle,
  cpuSeconds,
  rssMegabytes,
  freePort,
  tokenRequest,
  serviceEnvironment,
  baselineEnvironment,
  BASELINE_ENTRY,
};

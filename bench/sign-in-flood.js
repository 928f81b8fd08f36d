'use strict';
/**
 * `npm run bench:sign-in-flood`: a real user's login latency while many addresses flood the service
 * with wrong passwords, each address under every sign-in budget (docs/throttling.md#password-hashing).
 * Starts the built service (dist/src/main.js), in production mode on DATABASE_URL, once per mode:
 *   bounded    password hashing as shipped (PASSWORD_HASHING_* defaults)
 *   unbounded  PASSWORD_HASHING_CONCURRENCY=0: every check hashes at once, as before the bound
 * and per mode measures, on the login page (GET /connect/authorize, then the POST of the form):
 *   quiet      alice, with the device cookie of an earlier sign-in, no flood
 *   flood      the same while --flooders connections send password-grant requests with wrong passwords
 *              for ever new usernames from --addresses loopback addresses (127.0.1.x, 127.0.2.x …)
 *   no cookie  a browser without a device cookie signing alice in, during the same flood
 * Prints the figures (and writes bench/results/sign-in-flood.json); fails nothing on speed.
 *
 * Options (flag or env):                     default
 *   --duration S   BENCH_DURATION              15   seconds of flood per mode
 *   --flooders N   BENCH_FLOODERS              64   concurrent flood connections
 *   --addresses N  BENCH_ADDRESSES             250  source addresses of the flood
 *   --modes L      BENCH_MODES                 bounded,unbounded
 * DATABASE_URL: run on that PostgreSQL; unset: the embedded PGlite in a fresh temporary DATA_DIR.
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const ENTRY = path.join(ROOT, 'dist', 'src', 'main.js');
const RESULTS = path.join(__dirname, 'results', 'sign-in-flood.json');
const CALLBACK = 'http://127.0.0.1:5173/callback';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function option(name, env, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : (process.env[env] ?? fallback);
}

const options = {
  durationMs: Number(option('duration', 'BENCH_DURATION', '15')) * 1000,
  flooders: Number(option('flooders', 'BENCH_FLOODERS', '64')),
  addresses: Number(option('addresses', 'BENCH_ADDRESSES', '250')),
  modes: option('modes', 'BENCH_MODES', 'bounded,unbounded').split(','),
  databaseUrl: process.env.DATABASE_URL,
};

/**
 * One HTTP exchange from `localAddress`, on a connection of its own; resolves with status, headers, body.
 * @param {string} url
 * @param {{ method?: string, body?: string, headers?: import('node:http').OutgoingHttpHeaders, localAddress?: string }} [request]
 * @returns {Promise<{ status: number | undefined, headers: import('node:http').IncomingHttpHeaders, body: string }>}
 */
function exchange(url, { method = 'GET', body, headers = {}, localAddress = '127.0.0.1' } = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, localAddress, agent: false }, (incoming) => {
      const chunks = [];
      incoming.on('data', (chunk) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.setTimeout(60_000, () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A browser's cookie jar and the login page's form, without a browser. */
class CookieJar {
  constructor() {
    this.cookies = new Map();
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  keep(response) {
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const pair = line.split(';')[0];
      this.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  }
}

function authorizeUrl(baseUrl) {
  const challenge = crypto.createHash('sha256').update(crypto.randomBytes(32).toString('base64url')).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'spa',
    redirect_uri: CALLBACK,
    scope: 'openid',
    state: 'bench',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    prompt: 'login',
  });
  return `${baseUrl}/connect/authorize?${query}`;
}

/** Alice signs in on the login page; the time of the form's POST (the password check) and its outcome. */
async function aliceSignsIn(baseUrl, jar) {
  const page = jar.keep(await exchange(authorizeUrl(baseUrl), { headers: { cookie: jar.header() } }));
  const hidden = {};
  for (const [input] of page.body.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name === undefined) continue;
    hidden[name] = (/value="([^"]*)"/.exec(input)?.[1] ?? '').replace(/&amp;/g, '&');
  }
  const action = /<form\b[^>]*action="([^"]*)"/.exec(page.body)?.[1];
  if (action === undefined) throw new Error(`the login page has no form (status ${page.status})`);
  const body = new URLSearchParams({ ...hidden, username: 'alice', password: 'alice' }).toString();
  const started = performance.now();
  const answer = jar.keep(
    await exchange(new URL(action, baseUrl).toString(), {
      method: 'POST',
      body,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    }),
  );
  const ms = performance.now() - started;
  return { ms, outcome: answer.status === 302 ? 'signed in' : answer.status === 503 ? '503' : `refused (${answer.status})` };
}

/** Wrong passwords for ever new usernames, round robin over the flood's addresses, until `until`. */
async function flood(baseUrl, until, counts) {
  const authorization = `Basic ${Buffer.from('frontend:frontend-secret').toString('base64')}`;
  let next = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const n = next++;
      const address = `127.0.${1 + Math.floor((n % options.addresses) / 250)}.${1 + ((n % options.addresses) % 250)}`;
      const body = new URLSearchParams({ grant_type: 'password', username: `flood-${n}`, password: 'guess' }).toString();
      const headers = { authorization, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) };
      const { status = 'error' } = await exchange(`${baseUrl}/connect/token`, { method: 'POST', body, headers, localAddress: address }).catch(() => ({
        status: undefined,
      }));
      counts[status] = (counts[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.flooders }, worker));
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples) {
  const ms = samples.map((sample) => sample.ms);
  const outcomes = {};
  for (const { outcome } of samples) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  const round = (value) => Math.round(value * 10) / 10;
  return { n: samples.length, p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), max: round(Math.max(...ms)), outcomes };
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startService(mode) {
  const port = await freePort();
  const dataDir = options.databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'tollgate-bench-'));
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    // Production mode needs PostgreSQL; on the embedded database the service runs in development mode.
    NODE_ENV: options.databaseUrl ? 'production' : 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    ALLOW_INSECURE_ISSUER: 'true',
    ALLOW_DEMO_DATA: 'true',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...(mode === 'unbounded' ? { PASSWORD_HASHING_CONCURRENCY: '0' } : {}),
  };
  delete env.ISSUER;
  if (options.databaseUrl && !env.KEY_ENCRYPTION_KEY) {
    env.KEY_ENCRYPTION_KEY = Buffer.from(crypto.hkdfSync('sha256', options.databaseUrl, 'tollgate-bench', 'bench key-encryption key', 32)).toString('base64');
  }
  const child = spawn(process.execPath, [ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await sleep(250)) {
    if (child.exitCode !== null) throw new Error(`the service exited during start:\n${stderr}`);
    const ready = await exchange(`${baseUrl}/.well-known/openid-configuration`).catch(() => undefined);
    if (ready?.status === 200) {
      return {
        baseUrl,
        stop: async () => {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
          if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    }
  }
  child.kill('SIGKILL');
  throw new Error(`the service did not answer within 180 s:\n${stderr}`);
}

async function benchMode(mode) {
  const service = await startService(mode);
  try {
    const alice = new CookieJar();
    const first = await aliceSignsIn(service.baseUrl, alice);
    if (first.outcome !== 'signed in' || !alice.cookies.has('tollgate.device')) throw new Error(`alice's first sign-in: ${first.outcome}, no device cookie`);
    const quiet = [];
    for (let i = 0; i < 20; i++) quiet.push(await aliceSignsIn(service.baseUrl, alice));

    const counts = {};
    const started = performance.now();
    const until = started + options.durationMs;
    const flooding = flood(service.baseUrl, until, counts);
    await sleep(2000); // let the flood fill the queue
    const withCookie = [];
    const withoutCookie = [];
    while (performance.now() < until - 1000) {
      withCookie.push(await aliceSignsIn(service.baseUrl, alice));
      withoutCookie.push(await aliceSignsIn(service.baseUrl, new CookieJar()));
    }
    await flooding;
    const seconds = (performance.now() - started) / 1000;
    const floodRequests = Object.values(counts).reduce((a, b) => a + b, 0);
    return {
      mode,
      quiet: summary(quiet),
      flood: summary(withCookie),
      noCookie: summary(withoutCookie),
      floodPerSecond: Math.round(floodRequests / seconds),
      floodAnswers: counts,
    };
  } finally {
    await service.stop();
  }
}

async function main() {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: npm run build`);
  console.log(
    `sign-in flood: ${options.flooders} connections from ${options.addresses} addresses, ${options.durationMs / 1000} s per mode, ` +
      `${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  const results = [];
  for (const mode of options.modes) {
    const result = await benchMode(mode);
    results.push(result);
    const row = (label, s) =>
      console.log(
        `  ${label.padEnd(30)} n=${String(s.n).padStart(3)}  p50 ${String(s.p50).padStart(7)} ms  p95 ${String(s.p95).padStart(7)} ms  max ${String(s.max).padStart(7)} ms  ${JSON.stringify(s.outcomes)}`,
      );
    console.log(`${mode}:`);
    row('alice, device cookie, quiet', result.quiet);
    row('alice, device cookie, flood', result.flood);
    row('alice, no device cookie, flood', result.noCookie);
    console.log(`  flood: ${result.floodPerSecond} requests/s, answers ${JSON.stringify(result.floodAnswers)}`);
  }
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2)}\n`);
  console.log(JSON.stringify(results));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

'use strict';
/**
 * What OpenTelemetry tracing costs (docs/operations.md#tracing): CPU per client_credentials request
 * of the built service with tracing off, on (every request sampled, exported over OTLP/HTTP to a
 * collector stand-in that discards what it gets) and on with 10% of traces sampled, and, with
 * --base, of another build without tracing at all (the cost of the code that is there when off).
 * The servers take the load in alternating rounds, as in bench/run.js, pinned to CPU 0 (load: CPU 1).
 *
 *   npm run build && node bench/tracing-cost.js [--duration 20] [--rounds 10] [--base /path/to/other/dist/src/main.js]
 *
 * DATABASE_URL: on that PostgreSQL; unset, each server on its own embedded PGlite. BENCH_CONNECTIONS:
 * autocannon's connections (32). On a busy machine single rounds vary widely: quote the medians.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { combineRounds, parseOptions, send, serviceEnvironment, startServer, stopServer, tokenRequest } = require('./run');

const ROOT = path.resolve(__dirname, '..');
const NODE_OPTIONS = require('./start-command').startCommand().nodeOptions;
const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
const REQUEST = tokenRequest('m2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 api2' });

const flag = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const durationSeconds = Math.min(Math.max(Number(flag('duration', 20)), 2), 300);
const rounds = Math.min(Math.max(Number(flag('rounds', 10)), 1), 60);
const base = flag('base');

/** A collector's OTLP/HTTP endpoint that reads and drops every export. */
function startSink() {
  let exports = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => (exports++, response.writeHead(200, { 'content-type': request.headers['content-type'] }).end()));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`, exports: () => exports }),
    ),
  );
}

function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

async function settle(pid) {
  for (let last = cpuSeconds(pid), deadline = Date.now() + 5000; Date.now() < deadline;) {
    await new Promise((wait) => setTimeout(wait, 100));
    const now = cpuSeconds(pid);
    if (!(now > last)) return;
    last = now;
  }
}

function runLoad(options, url, seconds) {
  const spec = { url, method: REQUEST.method, headers: REQUEST.headers, body: REQUEST.body, connections: options.connections, durationSeconds: seconds };
  const args = [path.join(__dirname, 'load.js'), JSON.stringify(spec)];
  const child = options.pin ? spawn('taskset', ['-c', '1', process.execPath, ...args], { cwd: ROOT }) : spawn(process.execPath, args, { cwd: ROOT });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? ''));
    }),
  );
}

function median(sorted) {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Client authentication and the four token stages: the calls of inSpan a client_credentials request makes.
const SPANS_PER_REQUEST = 5;

/** What inSpan costs with tracing off (the only tracing code on a request's path then), in this process. */
function offPathNanoseconds() {
  const { inSpan, isTracing } = require(path.join(ROOT, 'dist/src/platform/tracing/spans'));
  if (isTracing()) throw new Error('tracing is on in the bench process');
  const calls = 5_000_000;
  let sum = 0;
  const run = () => {
    for (let i = 0; i < calls; i++) sum += inSpan('tollgate.token.grant_validation', () => i, { 'tollgate.grant_type': 'client_credentials' });
  };
  run();
  const start = process.hrtime.bigint();
  run();
  const direct = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sum += ((value) => value)(i);
  const end = process.hrtime.bigint();
  if (sum === 0) throw new Error('unreachable');
  return Math.max(0, Number(direct - start - (end - direct)) / calls);
}

async function main() {
  const options = parseOptions([], process.env);
  // startServer writes each server's output there.
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  const sink = await startSink();
  const runDirs = [];
  const environment = (otel) => {
    const env = serviceEnvironment(options, 'RS256', runDirs);
    for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
    return { ...env, ...otel };
  };
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'tollgate-bench' };
  const variants = [
    ...(base ? [{ name: 'no tracing code (--base)', entry: path.resolve(base), env: {} }] : []),
    { name: 'tracing off', entry: path.join(ROOT, 'dist/src/main.js'), env: {} },
    { name: 'tracing on, every trace', entry: path.join(ROOT, 'dist/src/main.js'), env: traced },
    {
      name: 'tracing on, 10% sampled',
      entry: path.join(ROOT, 'dist/src/main.js'),
      env: { ...traced, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
    },
  ];
  /** @type {{ name: string, entry: string, env: Record<string, string>, server: any, rounds: any[] }[]} */
  const servers = [];
  try {
    for (const [index, variant] of variants.entries()) {
      const server = await startServer(`tracing-${index}`, options, [...NODE_OPTIONS, variant.entry], environment(variant.env));
      const answer = await send(server.baseUrl, REQUEST);
      if (answer.status !== 200) throw new Error(`${variant.name}: ${answer.status} ${answer.body}`);
      servers.push({ ...variant, server, rounds: [] });
    }
    process.stdout.write(
      `${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}, ${options.pin ? 'pinned' : 'not pinned'}, ${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}\n`,
    );
    for (const entry of servers) {
      await runLoad(options, entry.server.baseUrl + REQUEST.path, 8);
      await settle(entry.server.child.pid);
    }
    const slice = Math.max(1, Math.round(durationSeconds / rounds));
    for (let round = 0; round < rounds; round++) {
      // Each round starts with the next server: none is always the one right after the load generator starts.
      for (const entry of [...servers.slice(round % servers.length), ...servers.slice(0, round % servers.length)]) {
        const before = cpuSeconds(entry.server.child.pid);
        const result = await runLoad(options, entry.server.baseUrl + REQUEST.path, slice);
        await settle(entry.server.child.pid);
        entry.rounds.push({ ...result, cpuSeconds: cpuSeconds(entry.server.child.pid) - before });
      }
    }
    // On a busy machine whole rounds run slower or faster: each round's figure is compared with the
    // first server's in the same round, and the median of those ratios is what to quote.
    const perRequest = (round) => (round.cpuSeconds * 1e6) / round.requests;
    const percent = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
    process.stdout.write(`first server: ${servers[0].name}; per round, CPU/request against it: median (lowest … highest)\n`);
    for (const entry of servers) {
      const result = combineRounds(entry.rounds);
      const ratios = entry.rounds.map((round, index) => perRequest(round) / perRequest(servers[0].rounds[index])).sort((a, b) => a - b);
      process.stdout.write(
        `${entry.name.padEnd(26)} ${String(result.cpuMicrosPerRequest).padStart(7)} µs CPU/request  ` +
          `${percent(median(ratios)).padStart(8)} (${percent(ratios[0])} … ${percent(ratios.at(-1))})  ` +
          `${result.requestsPerSecond} req/s  p99 ${result.latencyMs.p99} ms  non-2xx ${result.non2xx}\n`,
      );
    }
    const offMicros = combineRounds(/** @type {{ rounds: any[] }} */ (servers.find((entry) => entry.name === 'tracing off')).rounds).cpuMicrosPerRequest;
    const perCall = offPathNanoseconds();
    process.stdout.write(
      `off path: ${perCall.toFixed(1)} ns per stage wrapper, ${SPANS_PER_REQUEST} per request = ` +
        `${((perCall * SPANS_PER_REQUEST) / 10 / offMicros).toFixed(4)} % of the CPU per request with tracing off\n`,
    );
    process.stdout.write(`the collector stand-in received ${sink.exports()} exports; load after the run ${os.loadavg()[0].toFixed(2)}\n`);
  } finally {
    for (const { server } of servers) await stopServer(server);
    sink.server.close();
    for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`tracing-cost: ${error.stack || error.message}`);
  process.exit(1);
});

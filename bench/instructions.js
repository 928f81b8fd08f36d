'use strict';
/**
 * `npm run bench:instructions`: machine instructions per request, counted by valgrind's callgrind,
 * for Tollgate and the bare baseline. Unlike requests/s, the count does not move with the load of a
 * shared machine (two runs agree within about 2%), so it shows what a change costs or saves. It
 * counts user-space instructions only: not time, not the kernel's share (socket writes), and an
 * RSA signature's instructions run much faster than the framework's, so its ratios are not the
 * throughput ratios of `npm run bench`.
 *
 * Each server runs under callgrind with instrumentation off; after a warm-up (V8 optimizes the hot
 * code) instrumentation is switched on for exactly `--requests` requests, 8 at a time.
 *
 *   --scenarios L   BENCH_SCENARIOS   userinfo,delegation,client_credentials
 *   --requests N                      2000      counted requests per scenario
 *   --warmup N                        5000      uncounted requests first
 *   --alg A         SIGNING_ALG       RS256     RS256 | PS256 | ES256
 *   --top N                           0         also list Tollgate's N costliest functions
 *   --entry FILE                      dist/src/main.js  the Tollgate build to count (e.g. a "before" tree)
 *   --no-baseline                               neither the bare baseline nor the design-card limit
 *   --no-design-card                            no design-card limit (baseline.js with BASELINE_JWT=nestjs)
 * The cold scenarios (userinfo_cold, delegation_cold) send the tokens of their shared pool in turn, warm-up
 * included, each going on where the other stopped: with BENCH_POOL ≥ (warmup + requests) × cold scenarios,
 * no token is presented twice.
 * Tollgate runs on DATABASE_URL (required: PGlite under valgrind would take minutes to boot).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const run = require('./run');

process.env.BENCH_REQUEST_TIMEOUT_MS ??= '600000';

const ROOT = path.resolve(__dirname, '..');
const CONCURRENCY = 8;

function option(argv, name, fallback) {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 && index + 1 < argv.length ? argv[index + 1] : fallback;
}

function fail(message) {
  console.error(`bench:instructions: ${message}`);
  process.exit(2);
}

/** callgrind_control finds the server by file names built from USER and HOST, as the server saw them. */
function callgrindControl(server, ...args) {
  const result = spawnSync('callgrind_control', [...args, String(server.child.pid)], {
    env: { ...process.env, HOST: '127.0.0.1' },
    encoding: 'utf8',
  });
  if (result.status !== 0 || /error opening|no process/i.test(result.stderr + result.stdout))
    throw new Error(`callgrind_control ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

/** Sends `count` requests, each as bench/load.js would vary it (a cold scenario's pool goes on at `cursor`). */
async function drive(baseUrl, request, count, cursor = { next: 0 }) {
  let left = count;
  let failed = 0;
  const worker = async () => {
    while (left-- > 0) {
      const response = await run.send(baseUrl, run.nextRequest(request, cursor));
      if (response.status !== 200 && failed++ === 0) console.error(`first failure: ${response.status} ${response.body.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (failed > 0) throw new Error(`${failed} of ${count} requests did not answer 200`);
}

async function waitForFile(file, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
    if (fs.existsSync(file) && fs.statSync(file).size > 0) return;
  }
  throw new Error(`${file} was not written`);
}

/** Instructions per counted request, and the dump file for --top. */
async function count(server, request, settings) {
  // One cursor per server: the cold scenarios share the pool, and a token one of them verified is in the cache.
  const cursor = (server.poolCursor ??= { next: 0 });
  await drive(server.baseUrl, request, settings.warmup, cursor);
  callgrindControl(server, '--instr=on');
  await drive(server.baseUrl, request, settings.requests, cursor);
  callgrindControl(server, '--instr=off');
  callgrindControl(server, '--dump');
  // Each dump gets the next number and zeroes the counters.
  server.dumps = (server.dumps ?? 0) + 1;
  const dump = `${server.outFile}.${server.dumps}`;
  await waitForFile(dump, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const totals = /^totals: (\d+)/m.exec(fs.readFileSync(dump, 'utf8'));
  if (!totals) throw new Error(`no totals in ${dump}`);
  return { perRequest: Math.round(Number(totals[1]) / settings.requests), dump };
}

/** Self instructions per request by function; V8's compiled JavaScript is named from its perf map. */
function topFunctions(dump, perfMap, requests, top) {
  const symbols = fs.existsSync(perfMap)
    ? fs
        .readFileSync(perfMap, 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const [start, size, ...name] = line.split(' ');
          return { start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16), name: name.join(' ') };
        })
        .sort((a, b) => a.start - b.start)
    : [];
  const nameAt = (address) => {
    let low = 0;
    let high = symbols.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (symbols[middle].start <= address) low = middle + 1;
      else high = middle - 1;
    }
    const symbol = symbols[high];
    return symbol && address < symbol.end ? symbol.name : `0x${address.toString(16)}`;
  };
  const annotated = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', dump], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
  const costs = new Map();
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+) \([^)]*\)\s+(.+)$/.exec(line);
    if (!match || line.includes('PROGRAM TOTALS')) continue;
    const jit = /^\?\?\?:0x([0-9a-f]+) \[\?\?\?\]$/.exec(match[2]);
    const name = jit ? nameAt(parseInt(jit[1], 16)) : match[2].replace(/^\?\?\?:/, '').replace(/ \[[^\]]*\]$/, '');
    costs.set(name, (costs.get(name) ?? 0) + Number(match[1].replace(/,/g, '')));
  }
  return [...costs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, cost]) => ({ name: name.replace(ROOT + '/', ''), perRequest: Math.round(cost / requests) }));
}

async function main() {
  const argv = process.argv.slice(2);
  if (spawnSync('valgrind', ['--version']).status !== 0) fail('valgrind is not installed (apt-get install valgrind)');
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) fail('set DATABASE_URL: Tollgate is measured on PostgreSQL (see the top of this file)');
  const names = option(argv, 'scenarios', process.env.BENCH_SCENARIOS ?? 'userinfo,delegation,client_credentials').split(',');
  const scenarios = run.SCENARIOS.filter((scenario) => names.includes(scenario.name) && scenario.name !== 'password');
  if (scenarios.length !== names.length)
    fail(
      `scenarios are ${run.SCENARIOS.map((s) => s.name)
        .filter((n) => n !== 'password')
        .join(', ')}`,
    );
  const settings = { requests: Number(option(argv, 'requests', 2000)), warmup: Number(option(argv, 'warmup', 5000)), top: Number(option(argv, 'top', 0)) };
  const algorithm = option(argv, 'alg', process.env.SIGNING_ALG ?? 'RS256');
  const resultsDir = path.join(__dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });

  const servers = [];
  const runDirs = [];
  const launch = async (name, entry, env, readyPath) => {
    const outFile = path.join(resultsDir, `callgrind-${name}-${process.pid}.out`);
    const launcher = ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`];
    const options = { launcher, pin: false, profile: false };
    const args = settings.top > 0 ? ['--perf-basic-prof', entry] : [entry];
    const server = { name, outFile, ...(await run.startServer(`${name}-callgrind`, options, args, env, readyPath)) };
    servers.push(server);
    return server;
  };
  try {
    const rows = [];
    const tollgate = await launch(
      'tollgate',
      path.resolve(option(argv, 'entry', path.join(ROOT, 'dist', 'src', 'main.js'))),
      run.serviceEnvironment({ databaseUrl }, algorithm, runDirs),
    );
    const baseline = argv.includes('--no-baseline') ? undefined : await launch('baseline', run.BASELINE_ENTRY, run.baselineEnvironment(algorithm), '/health');
    const design =
      argv.includes('--no-baseline') || argv.includes('--no-design-card')
        ? undefined
        : await launch('design', run.BASELINE_ENTRY, { ...run.baselineEnvironment(algorithm), BASELINE_JWT: 'nestjs' }, '/health');
    for (const scenario of scenarios) {
      const row = { scenario: scenario.name };
      for (const server of [tollgate, baseline, design].filter((server) => server !== undefined)) {
        const prepared = await run.prepare(server, scenario);
        if (prepared.status !== 'ready') throw new Error(`${server.name}, ${scenario.name}: ${prepared.reason}`);
        const counted = await count(server, prepared.request, settings);
        row[server.name] = counted.perRequest;
        if (server === tollgate && settings.top > 0) {
          row.top = topFunctions(counted.dump, `/tmp/perf-${server.child.pid}.map`, settings.requests, settings.top);
        }
        fs.rmSync(counted.dump, { force: true });
      }
      rows.push(row);
      console.log(
        `${scenario.name.padEnd(20)} tollgate ${String(row.tollgate).padStart(9)} instructions/request` +
          (row.baseline ? `   baseline ${String(row.baseline).padStart(9)}   baseline/tollgate ${(row.baseline / row.tollgate).toFixed(2)}` : '') +
          (row.design ? `   design ${String(row.design).padStart(9)}   design/tollgate ${(row.design / row.tollgate).toFixed(2)}` : ''),
      );
      for (const { name, perRequest } of row.top ?? []) console.log(`${String(perRequest).padStart(10)}  ${name.slice(0, 150)}`);
    }
    const file = path.join(resultsDir, 'instructions.json');
    fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), algorithm, ...settings, rows }, null, 2) + '\n');
    console.log(`written to ${path.relative(ROOT, file)}`);
  } finally {
    for (const server of servers) {
      await run.stopServer(server);
      for (const file of fs.readdirSync(resultsDir))
        if (file.startsWith(path.basename(server.outFile))) fs.rmSync(path.join(resultsDir, file), { force: true });
      fs.rmSync(`/tmp/perf-${server.child.pid}.map`, { force: true });
    }
    for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`bench:instructions: ${error.stack || error.message}`);
  process.exit(1);
});

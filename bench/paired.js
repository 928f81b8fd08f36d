'use strict';
/**
 * `node bench/paired.js --scenarios A,B [--rounds N] [--seconds S] [--entry FILE]`: one Tollgate server, the
 * scenarios' loads alternated round by round (A B A B …, S seconds each, after a warm-up of each), and the CPU
 * per request of each with their ratio. On a shared machine the load of other processes moves CPU per request
 * by 2× and more between minutes; alternating the two on one server lets it fall on both alike, which is what a
 * ratio of two scenarios (DPoP against plain client_credentials, a metadata document client against a registered
 * one) needs. PostgreSQL when DATABASE_URL is set, else the embedded PGlite; pinned as bench/run.js pins.
 */
const fs = require('node:fs');
const path = require('node:path');
const run = require('./run');

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);

async function main() {
  const options = run.parseOptions(['--scenarios', option('scenarios', 'client_credentials,client_credentials_dpop')], process.env);
  const rounds = Number(option('rounds', 10));
  const seconds = Number(option('seconds', 2));
  const entry = path.resolve(option('entry', path.join(__dirname, '..', 'dist', 'src', 'main.js')));
  const runDirs = [];
  const env = run.serviceEnvironment(options, 'RS256', runDirs);
  const server = { name: 'tollgate', ...(await run.startServer('paired', options, [...run.SERVICE_NODE_OPTIONS, entry], env)) };
  try {
    /** @type {{ scenario: any, request: any, requests: number, cpuSeconds: number, p99: number[] }[]} */
    const entries = [];
    for (const scenario of options.scenarios) {
      const prepared = await run.prepare(server, scenario);
      if (prepared.status !== 'ready') throw new Error(`${scenario.name}: ${prepared.reason}`);
      await run.runLoad(options, server.baseUrl + prepared.request.path, prepared.request, 3 * seconds);
      entries.push({ scenario, request: prepared.request, requests: 0, cpuSeconds: 0, p99: [] });
    }
    for (let round = 0; round < rounds; round++) {
      for (const entry of entries) {
        await run.settle(server.child.pid);
        const before = run.cpuSeconds(server.child.pid);
        const result = await run.runLoad(options, server.baseUrl + entry.request.path, entry.request, seconds);
        await run.settle(server.child.pid);
        entry.cpuSeconds += run.cpuSeconds(server.child.pid) - before;
        entry.requests += result.requests;
        entry.p99.push(result.latencyMs.p99);
        if (result.non2xx + result.errors > 0) throw new Error(`${entry.scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      }
    }
    const micros = (entry) => Math.round((entry.cpuSeconds * 1e6) / entry.requests);
    for (const entry of entries) {
      const p99 = [...entry.p99].sort((a, b) => a - b)[Math.floor(entry.p99.length / 2)];
      console.log(`${entry.scenario.name}: ${entry.requests} requests, ${micros(entry)} µs CPU per request, median p99 ${p99} ms`);
    }
    const [first, ...others] = entries;
    for (const other of others) console.log(`${other.scenario.name} / ${first.scenario.name}: ${(micros(other) / micros(first)).toFixed(2)}× CPU per request`);
    console.log(`RSS after: ${run.rssMegabytes(server.child.pid)} MB`);
  } finally {
    await run.stopServer(server);
    for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`bench/paired: ${error.stack || error.message}`);
  process.exit(1);
});

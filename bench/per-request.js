'use strict';
/**
 * `node bench/per-request.js`: what one request costs besides CPU, counted rather than timed, so it holds on
 * a loaded machine. For each scenario, over `--requests` requests (8 at a time, after 200 uncounted):
 * - PostgreSQL transactions (pg_stat_database of DATABASE_URL's database), less what the service's timers
 *   ran meanwhile (measured idle for 3 s before);
 * - bytes the V8 heap allocated (`--trace-gc-nvp`), and the scavenges and mark-compacts with their pauses
 *   (pauses are wall time: a loaded machine inflates them).
 *
 *   --scenarios L   userinfo,delegation,client_credentials   (cold ones need BENCH_POOL >= requests + 200)
 *   --requests N    3000
 *   --entry FILE    dist/src/main.js
 * Needs DATABASE_URL and psql.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const run = require('./run');

function option(argv, name, fallback) {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 && index + 1 < argv.length ? argv[index + 1] : fallback;
}

function transactions(url) {
  const database = new URL(url).pathname.slice(1);
  const sql = `select xact_commit + xact_rollback from pg_stat_database where datname = '${database.replace(/'/g, "''")}'`;
  // Each psql call is a transaction of its own in that database, subtracted by the caller.
  const result = spawnSync('psql', [url, '-Atc', sql], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return Number(result.stdout);
}

async function drive(baseUrl, request, count, cursor) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const response = await run.send(baseUrl, run.nextRequest(request, cursor));
      if (response.status !== 200) throw new Error(`${response.status} ${response.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Totals of the `--trace-gc-nvp` lines in `text`. */
function garbageCollections(text) {
  const collections = { allocated: 0, scavenge: { count: 0, pauseMs: 0, maxMs: 0 }, markCompact: { count: 0, pauseMs: 0, maxMs: 0 } };
  for (const line of text.split('\n')) {
    const kind = / gc=(s|mc|ms)\b/.exec(line)?.[1];
    if (!kind) continue;
    const field = (name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    const totals = kind === 's' ? collections.scavenge : collections.markCompact;
    totals.count++;
    totals.pauseMs += field('pause');
    totals.maxMs = Math.max(totals.maxMs, field('pause'));
    collections.allocated += field('allocated');
  }
  return collections;
}

function readFrom(file, offset) {
  const size = fs.statSync(file).size;
  const buffer = Buffer.alloc(Math.max(size - offset, 0));
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, buffer, 0, buffer.length, offset);
  fs.closeSync(fd);
  return buffer.toString();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const argv = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('set DATABASE_URL');
  const requests = Number(option(argv, 'requests', 3000));
  const names = option(argv, 'scenarios', 'userinfo,delegation,client_credentials').split(',');
  const entry = path.resolve(option(argv, 'entry', path.join(__dirname, '..', 'dist', 'src', 'main.js')));
  const runDirs = [];
  const server = await run.startServer(
    'tollgate-per-request',
    { pin: false, profile: false },
    ['--trace-gc-nvp', entry],
    run.serviceEnvironment({ databaseUrl: url }, 'RS256', runDirs),
  );
  try {
    for (const name of names) {
      const scenario = run.SCENARIOS.find((candidate) => candidate.name === name);
      if (!scenario) throw new Error(`unknown scenario ${name}`);
      const prepared = await run.prepare(server, scenario);
      if (prepared.status !== 'ready') throw new Error(`${name}: ${prepared.reason}`);
      const cursor = { next: 0 };
      await drive(server.baseUrl, prepared.request, 200, cursor);
      let before = transactions(url);
      const idleStart = Date.now();
      await sleep(3000);
      const timersPerSecond = (transactions(url) - before - 1) / ((Date.now() - idleStart) / 1000);
      const logOffset = fs.statSync(server.logFile).size;
      before = transactions(url);
      const start = Date.now();
      await drive(server.baseUrl, prepared.request, requests, cursor);
      const seconds = (Date.now() - start) / 1000;
      const ran = transactions(url) - before - 1;
      await sleep(500);
      const gc = garbageCollections(readFrom(server.logFile, logOffset));
      const perThousand = (count) => ((1000 * count) / requests).toFixed(1);
      const pause = (totals) => (totals.count === 0 ? '' : `, pause mean ${(totals.pauseMs / totals.count).toFixed(1)} max ${totals.maxMs.toFixed(1)} ms`);
      console.log(
        `${name.padEnd(20)} database ${((ran - timersPerSecond * seconds) / requests).toFixed(3)} transactions/request (timers ${timersPerSecond.toFixed(1)}/s)` +
          ` | heap ${(gc.allocated / requests / 1024).toFixed(1)} KiB/request | scavenges ${perThousand(gc.scavenge.count)}/1000 requests${pause(gc.scavenge)}` +
          ` | mark-compacts ${perThousand(gc.markCompact.count)}/1000${pause(gc.markCompact)}`,
      );
    }
  } finally {
    await run.stopServer(server);
    for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`bench/per-request: ${error.stack || error.message}`);
  process.exit(1);
});

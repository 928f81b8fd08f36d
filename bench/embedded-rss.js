'use strict';
/**
 * `node bench/embedded-rss.js [--requests N] [--idle S] [--entry FILE]`: the resident memory of the embedded default, started
 * as `npm start` starts it (its GLIBC_TUNABLES and node options, NODE_ENV unset, PGlite in a fresh temporary
 * DATA_DIR, the demo data), idle after start, after N client_credentials requests (m2m, 32 at a time), and idle S
 * seconds after those: VmRSS of the node process, split into anonymous memory (V8 heap, PGlite's WebAssembly
 * memory, malloc) and file-backed pages (the node binary, shared libraries), and VmHWM (the peak). Run after
 * `npm run build`; the rest of the environment is passed through to the service.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const run = require('./run');
const { startCommand } = require('./start-command');

const ROOT = path.resolve(__dirname, '..');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function status(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return {
    rssMb: Math.round(kb('VmRSS') / 1024),
    anonMb: Math.round(kb('RssAnon') / 1024),
    fileMb: Math.round(kb('RssFile') / 1024),
    hwmMb: Math.round(kb('VmHWM') / 1024),
  };
}

async function main() {
  const requests = option('requests', 2000);
  const idleSeconds = option('idle', 10);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tollgate-rss-'));
  const port = await run.freePort();
  const start = startCommand();
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, ...start.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.NODE_ENV;
  delete env.DATABASE_URL;
  const entryIndex = process.argv.indexOf('--entry');
  const entry = entryIndex >= 0 ? path.resolve(process.argv[entryIndex + 1]) : start.entry;
  const child = spawn(process.execPath, [...start.nodeOptions, entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
      const ok = await fetch(`${baseUrl}/.well-known/openid-configuration`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() - started > 180_000) throw new Error('the service did not start within 180 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const bootSeconds = (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle = status(child.pid);
    const request = run.tokenRequest('m2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 api2' });
    let left = requests;
    let failed = 0;
    const worker = async () => {
      while (left-- > 0) if ((await run.send(baseUrl, request)).status !== 200) failed++;
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const loaded = status(child.pid);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const after = status(child.pid);
    console.log(
      JSON.stringify(
        { bootSeconds, idle, afterRequests: loaded, idleAfter: after, requests, failed, loadAverage: os.loadavg().map((l) => l.toFixed(2)) },
        null,
        2,
      ),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`embedded-rss: ${error.stack || error.message}`);
  process.exit(1);
});

'use strict';
/**
 * The load generator, run by bench/run.js as its own process (pinned to another CPU than the
 * server where taskset exists) so that generating load does not compete with the server measured.
 * Runs one autocannon pass and prints its figures as one JSON line on stdout.
 *
 * Usage: node bench/load.js '<json>' with {url, method, headers, body, connections, durationSeconds,
 * poolFile?, poolOffset?}. poolFile names a JSON array of {headers?, body?}: successive requests take
 * its entries in turn from poolOffset (the "cold" scenarios: many distinct tokens instead of one);
 * the figures printed include poolTaken, how many entries this pass used. dpop {htm, htu} sends a
 * fresh DPoP proof with every request (bench/dpop-proof.js). fresh {path, placeholder} sends every
 * request to `path` with `placeholder` replaced by a new random value (first-seen client_ids).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const autocannon = require('autocannon');
const { dpopProofs } = require('./dpop-proof');

const spec = JSON.parse(process.argv[2] || '{}');
if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(spec.url || '')) {
  console.error('load.js only targets http://127.0.0.1:<port>/');
  process.exit(2);
}
const durationSeconds = Math.min(Math.max(Number(spec.durationSeconds) || 1, 1), 600);
const connections = Math.min(Math.max(Number(spec.connections) || 1, 1), 1024);
const pool = spec.poolFile ? JSON.parse(fs.readFileSync(spec.poolFile, 'utf8')) : undefined;
const poolOffset = Math.max(Number(spec.poolOffset) || 0, 0);
let next = poolOffset;
const proof = spec.dpop && dpopProofs(spec.dpop.htm, spec.dpop.htu);
const fresh = spec.fresh && { path: String(spec.fresh.path), placeholder: String(spec.fresh.placeholder) };
const requests = (pool || proof || fresh) && [
  {
    setupRequest: (request) => {
      const entry = pool ? pool[next++ % pool.length] : {};
      const headers = { ...request.headers, ...entry.headers, ...(proof ? { dpop: proof() } : {}) };
      const path = fresh ? fresh.path.replace(fresh.placeholder, crypto.randomBytes(12).toString('base64url')) : request.path;
      return { ...request, path, headers, body: entry.body ?? request.body };
    },
  },
];

const instance = autocannon(
  {
    url: spec.url,
    method: spec.method || 'GET',
    headers: spec.headers || {},
    body: spec.body,
    requests,
    connections,
    duration: durationSeconds,
    timeout: 10,
  },
  (error, result) => {
    if (error) {
      console.error(error.message);
      process.exit(1);
    }
    const latency = result.latency;
    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats || {}).map(([code, { count }]) => [code, Number(count)]));
    process.stdout.write(
      JSON.stringify({
        requests: result.requests.total,
        durationSeconds: result.duration,
        requestsPerSecond: result.requests.total / result.duration,
        latencyMs: { average: latency.average, p50: latency.p50, p99: latency.p99, max: latency.max },
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statusCodes,
        poolTaken: next - poolOffset,
      }) + '\n',
      // Exit now: autocannon leaves its keep-alive sockets to the server's idle timeout.
      () => process.exit(0),
    );
  },
);
// Bounded: autocannon stops after `duration`; this is the backstop should a connection hang.
setTimeout(() => instance.stop(), (durationSeconds + 30) * 1000).unref();
process.once('SIGTERM', () => instance.stop());

'use strict';
/**
 * Splits a .cpuprofile of Tollgate under load into cost buckets (signature, JWT library, database,
 * client authentication, rate limiter, metrics, socket writes, GC, framework …), in CPU µs per
 * request. Each sample goes to the first bucket whose rule matches its stack (leaf first).
 *
 * Usage: node bench/profile-breakdown.js <file.cpuprofile> <requests served while profiling>
 */
const fs = require('node:fs');

/** @type {[string, (leaf: any, stack: any[]) => boolean][]} */
const BUCKETS = [
  [
    'signing (native crypto)',
    (leaf, stack) => (leaf.functionName === 'sign' || leaf.functionName === 'run') && !leaf.url && stack.some((f) => /crypto\/sig/.test(f.url)),
  ],
  ['signature verification (native crypto)', (leaf, stack) => leaf.functionName === 'verify' && !leaf.url && stack.some((f) => /crypto\/sig/.test(f.url))],
  [
    'JWT library (@nestjs/jwt, jsonwebtoken, jws, jwa) around the crypto',
    (_, stack) => stack.some((f) => /node_modules\/(@nestjs\/jwt|jsonwebtoken|jws|jwa|lodash\.)/.test(f.url)),
  ],
  [
    'database (TypeORM, pg, PGlite)',
    (_, stack) => stack.some((f) => /node_modules\/(typeorm|pg|pg-protocol|pg-pool|@electric-sql)\/|^wasm|pglite-session-queue|persistence\//.test(f.url)),
  ],
  ['JWT duplicate-member check (json-object.ts)', (_, stack) => stack.some((f) => /json-object/.test(f.url))],
  ['rate limiter (client-auth.throttle, lru-cache)', (_, stack) => stack.some((f) => /rate-limit\//.test(f.url))],
  [
    'client authentication (Basic parse, client cache, SHA-256 compare)',
    (_, stack) => stack.some((f) => /client-authenticator|client-secret\.verifier|basic-credentials|client-credentials\.reader|client\.store/.test(f.url)),
  ],
  ['request metrics (prom-client hook)', (_, stack) => stack.some((f) => /request-metrics|prom-client/.test(f.url))],
  ['concurrency-limit hook', (_, stack) => stack.some((f) => /concurrency-limit/.test(f.url))],
  ['socket write (writev syscall)', (leaf) => leaf.functionName === 'writev' && !leaf.url],
  ['garbage collector', (leaf) => leaf.functionName === '(garbage collector)'],
  ['idle', (leaf) => leaf.functionName === '(idle)'],
  ['other Tollgate code (dist/src)', (_, stack) => stack.some((f) => /\/dist\/src\//.test(f.url))],
  ['framework and node HTTP (Nest, Fastify, node:http, promises, program)', () => true],
];

function breakdown(profile, requests) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children || []) parent.set(child, node.id);
  const totals = new Map(BUCKETS.map(([name]) => [name, 0]));
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const micros = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    const stack = [];
    for (let id = samples[i]; id !== undefined; id = parent.get(id)) stack.push(nodes.get(id).callFrame);
    const [name] = BUCKETS.find(([, matches]) => matches(stack[0], stack)) ?? BUCKETS[BUCKETS.length - 1];
    totals.set(name, totals.get(name) + micros);
  }
  const rows = [...totals].map(([name, micros]) => ({ name, microsPerRequest: Math.round((10 * micros) / requests) / 10 }));
  const busy = rows.filter((row) => row.name !== 'idle').reduce((sum, row) => sum + row.microsPerRequest, 0);
  return {
    busyMicrosPerRequest: Math.round(busy),
    rows: rows.map((row) => ({ ...row, percentOfBusy: row.name === 'idle' ? undefined : Math.round((1000 * row.microsPerRequest) / busy) / 10 })),
  };
}

module.exports = { breakdown };

if (require.main === module) {
  const [file, requests] = process.argv.slice(2);
  if (!file || !(Number(requests) > 0)) {
    console.error('usage: node bench/profile-breakdown.js <file.cpuprofile> <requests>');
    process.exit(2);
  }
  const result = breakdown(JSON.parse(fs.readFileSync(file, 'utf8')), Number(requests));
  console.log(`busy CPU per request: ${result.busyMicrosPerRequest} µs (profiler overhead included)`);
  for (const row of result.rows)
    console.log(
      `${String(row.microsPerRequest).padStart(8)} µs ${row.percentOfBusy === undefined ? '      ' : `${String(row.percentOfBusy).padStart(5)}%`}  ${row.name}`,
    );
}

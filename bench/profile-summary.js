'use strict';
/**
 * Summarizes a V8 .cpuprofile (from `node --cpu-prof` or `bench/run.js --profile`): where the
 * time went by package, the top functions by self time, and by total (inclusive) time.
 *
 * Usage: node bench/profile-summary.js <file.cpuprofile> [--top N] [--json]
 */
const fs = require('node:fs');
const path = require('node:path');

function summarize(profile, top = 25) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children || []) parent.set(child, node.id);

  // Sample i lasted until sample i+1; the last one gets the mean interval.
  const { samples, timeDeltas } = profile;
  const totalMicros = profile.endTime - profile.startTime;
  const meanMicros = totalMicros / Math.max(samples.length, 1);
  const duration = (i) => (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : meanMicros);

  const self = new Map();
  const inclusive = new Map();
  const categories = new Map();
  for (let i = 0; i < samples.length; i++) {
    const micros = duration(i);
    const leaf = nodes.get(samples[i]);
    const leafKey = keyOf(leaf.callFrame);
    self.set(leafKey, (self.get(leafKey) || 0) + micros);
    const category = categoryOf(leaf.callFrame);
    categories.set(category, (categories.get(category) || 0) + micros);
    const seen = new Set();
    for (let id = samples[i]; id !== undefined; id = parent.get(id)) {
      const key = keyOf(nodes.get(id).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) || 0) + micros);
    }
  }
  const busyMicros = totalMicros - (categories.get('(idle)') || 0);
  const rank = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: Math.round(micros / 1000), percentOfBusy: round1((100 * micros) / busyMicros) }));
  return {
    wallMs: Math.round(totalMicros / 1000),
    busyMs: Math.round(busyMicros / 1000),
    categories: rank(categories),
    selfTop: rank(self),
    inclusiveTop: rank(new Map([...inclusive].filter(([key]) => !/^\((root|program|idle|garbage collector)\)/.test(key)))),
  };
}

function keyOf({ functionName, url, lineNumber }) {
  const name = functionName || '(anonymous)';
  return url ? `${name} ${shortUrl(url)}:${lineNumber + 1}` : name;
}

function shortUrl(url) {
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length);
  return path.relative(process.cwd(), file) || file;
}

function categoryOf({ functionName, url }) {
  if (!url) return /^\(/.test(functionName) ? functionName : '(native: V8/C++ builtins, e.g. crypto sign/verify)';
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = file.slice(modules + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) {
    const internal = url.replace(/^node:(internal\/)?/, '');
    return `node:${internal.split('/')[0].replace(/\.js$/, '')}`;
  }
  if (/\/dist\/(src|migrations)\//.test(file)) return 'tollgate (dist/src)';
  if (/\/bench\//.test(file)) return 'bench';
  return file;
}

function round1(value) {
  return Math.round(value * 10) / 10;
}

function printSummary(summary, out = process.stdout) {
  out.write(`wall ${summary.wallMs} ms, busy (not idle) ${summary.busyMs} ms\n`);
  for (const [title, rows] of [
    ['By package (self time)', summary.categories],
    ['Top functions by self time', summary.selfTop],
    ['Top functions by total (inclusive) time', summary.inclusiveTop],
  ]) {
    out.write(`\n${title}:\n`);
    for (const row of rows) out.write(`  ${String(row.ms).padStart(7)} ms ${String(row.percentOfBusy).padStart(5)}%  ${row.name}\n`);
  }
}

module.exports = { summarize, printSummary };

if (require.main === module) {
  const args = process.argv.slice(2);
  const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--top');
  if (!file) {
    console.error('usage: node bench/profile-summary.js <file.cpuprofile> [--top N] [--json]');
    process.exit(2);
  }
  const topIndex = args.indexOf('--top');
  const summary = summarize(JSON.parse(fs.readFileSync(file, 'utf8')), topIndex >= 0 ? Number(args[topIndex + 1]) : 25);
  if (args.includes('--json')) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  else printSummary(summary);
}

'use strict';
/**
 * How `npm start` runs the service, read from package.json's `scripts.start`
 * (`NAME=value … node --option … dist/src/main.js`): the environment it sets and the node options it
 * passes, so that the bench runs the service (and the servers it compares it with) as deployed.
 */
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_JSON = path.join(__dirname, '..', 'package.json');

/** @returns {{ env: Record<string, string>, nodeOptions: string[], entry: string }} */
function startCommand() {
  const manifest = JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8'));
  const script = manifest.scripts?.start;
  if (typeof script !== 'string') throw new Error('package.json has no scripts.start');
  const words = script.split(' ').filter(Boolean);
  const node = words.indexOf('node');
  const assignments = words.slice(0, Math.max(node, 0));
  const nodeOptions = words.slice(node + 1, -1);
  const entry = words[words.length - 1];
  const shaped = node >= 0 && assignments.every((word) => word.includes('=')) && nodeOptions.every((word) => word.startsWith('--'));
  if (!shaped || !entry.endsWith('.js')) {
    throw new Error(`package.json scripts.start is not "NAME=value … node --option … entry.js": ${script}`);
  }
  const env = Object.fromEntries(assignments.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
  return { env, nodeOptions, entry };
}

module.exports = { startCommand };

// `npm start` and the operator commands (`npm run users`, `npm run client:migration`, …) run this first:
// it builds (scripts/build.mjs, about a second) only when a source is newer than the last build, so when
// nothing changed they start the built code at once. Plain JavaScript: it runs before any build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, SOURCE_DIRECTORIES, STAMP } from './build.mjs';

const root = join(import.meta.dirname, '..');
const inputs = ['package.json', 'package-lock.json', 'scripts/build.mjs'];

function newest(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  // A directory's own time changes when a file in it is added, removed or renamed.
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .reduce((latest, entry) => Math.max(latest, newest(join(path, entry.name))), stats.mtimeMs);
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -1;
const latest = Math.max(
  ...SOURCE_DIRECTORIES.filter((directory) => existsSync(join(root, directory))).map((directory) => newest(join(root, directory))),
  ...inputs.filter((file) => existsSync(join(root, file))).map((file) => newest(join(root, file))),
);
if (latest > built) {
  // On stderr: an operator command's standard output (a migration's path, a secret) stays its own.
  process.stderr.write(built < 0 ? 'Building Tollgate (swc, src → dist/)… ' : 'Sources changed since the last build: rebuilding (swc)… ');
  const started = performance.now();
  const count = await build();
  process.stderr.write(`${count} files in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

// `npm start` runs this first: it compiles (incrementally) only when a source is newer than the
// last build, so a second start skips the compiler entirely. Plain JavaScript: it runs before any build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist/.tsbuildinfo');
const inputs = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function newest(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  // A directory's own time changes when a file in it is added, removed or renamed.
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .reduce((latest, entry) => Math.max(latest, newest(join(path, entry.name))), stats.mtimeMs);
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
const latest = Math.max(
  ...['src', 'migrations', 'scripts'].map((dir) => newest(join(root, dir))),
  ...inputs.filter((file) => existsSync(join(root, file))).map((file) => newest(join(root, file))),
);
if (latest > built) {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  // tsc leaves the build info untouched when nothing it emits changed: mark this build as the latest.
  const now = new Date();
  utimesSync(stamp, now, now);
}

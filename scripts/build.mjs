// `npm run build`: compiles the TypeScript sources to dist/ with swc, file by file, without type checking
// (`npm run lint` type-checks with tsc). The options are those of jest.config.js, so the specs and the
// built service run the same code: decorator metadata for Nest's dependency injection, CommonJS, ES2022.
// Plain JavaScript: it runs before any build.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
export const OUT = join(root, 'dist');
/** Written last: its time is the time of the last complete build (scripts/build-if-stale.mjs). */
export const STAMP = join(OUT, '.built');
/** What tsconfig.build.json includes, minus the specs and their fixtures. */
export const SOURCE_DIRECTORIES = ['src', 'cli', 'migrations', 'examples'];
const excluded = (name) => name.endsWith('.spec.ts') || name.endsWith('.fixtures.ts') || name.endsWith('.d.ts');

/** @type {import('@swc/core').Options} */
const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  // `import()` becomes a lazy `require()`, as in jest: swc's CommonJS exports (an `_export` helper) are
  // invisible to an ESM `import()` of our own files, and every package we load lazily has a CommonJS
  // entry (Node >= 20.19 could also require an ES module).
  // exportInteropAnnotation: a dead `0 && (module.exports = {…})` that tells Node's CommonJS lexer the
  // export names, so that an ES module can `import { OAuthError } from 'tollgate'` (an ESM extension).
  module: { type: 'commonjs', exportInteropAnnotation: true },
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

async function sources() {
  const lists = await Promise.all(
    // examples/ is not in the container image's build.
    SOURCE_DIRECTORIES.filter((directory) => existsSync(join(root, directory))).map(async (directory) =>
      (await readdir(join(root, directory), { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !excluded(entry.name))
        .map((entry) => join(entry.parentPath, entry.name)),
    ),
  );
  return lists.flat();
}

async function compile(transformFile, file) {
  const target = join(OUT, relative(root, file)).replace(/\.ts$/, '.js');
  const { code, map } = await transformFile(file, { ...options, filename: file, sourceFileName: relative(dirname(target), file) });
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, `${code}\n//# sourceMappingURL=${target.slice(dirname(target).length + 1)}.map\n`);
  await writeFile(`${target}.map`, map);
}

/** A clean build: the output of a deleted source does not linger. Returns the number of files compiled. */
export async function build() {
  await Promise.all(SOURCE_DIRECTORIES.map((directory) => rm(join(OUT, directory), { recursive: true, force: true })));
  await rm(STAMP, { force: true });
  // Loaded here, not at the top: scripts/build-if-stale.mjs imports this file on every start.
  const { transformFile } = await import('@swc/core');
  const files = await sources();
  await Promise.all(files.map((file) => compile(transformFile, file)));
  await writeFile(STAMP, `${new Date().toISOString()}\n`);
  return files.length;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const count = await build();
  process.stderr.write(`Compiled ${count} files to dist/ with swc in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

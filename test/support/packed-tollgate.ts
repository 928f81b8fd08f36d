import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, readdir, realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './built-service';

const run = promisify(execFile);

/**
 * `npm pack` of the built repository into `directory`: declarations first (`npm run build:types`, what
 * `prepack` adds to the build), then the tarball without running `prepack` again. Returns its path.
 */
export async function packTollgate(directory: string): Promise<string> {
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.types.json'], { cwd: ROOT, timeout: 150_000 });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', directory], { cwd: ROOT, timeout: 60_000 });
  const [{ filename }] = JSON.parse(stdout) as { filename: string }[];
  return join(directory, filename);
}

/**
 * Installs the tarball into `appDirectory/node_modules/tollgate` as npm does (files unpacked, the bin
 * linked and executable), without a registry: every other dependency is a link to the repository's
 * install, which holds the same versions. Never run npm in such a directory: it writes through the links.
 */
export async function installPackedTollgate(appDirectory: string, tarball: string): Promise<void> {
  const modules = join(appDirectory, 'node_modules');
  const target = join(modules, 'tollgate');
  await mkdir(target, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  await mkdir(join(modules, '.bin'));
  await chmod(join(target, 'dist/cli/tollgate.js'), 0o755);
  await symlink('../tollgate/dist/cli/tollgate.js', join(modules, '.bin/tollgate'));
  for (const entry of await readdir(join(ROOT, 'node_modules'))) {
    if (entry === 'tollgate' || entry === '.bin' || entry.startsWith('.')) continue;
    await symlink(await realpath(join(ROOT, 'node_modules', entry)), join(modules, entry));
  }
}

/** A copy of an example project, without what a previous run left in it. */
export async function copyExample(name: string, destination: string): Promise<void> {
  await cp(join(ROOT, 'examples', name), destination, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist)([/\\]|$)/.test(source.slice(join(ROOT, 'examples', name).length)),
  });
}

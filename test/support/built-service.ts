import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The built service as `npm start` runs it, for specs that start it as a separate process. */
export const ROOT = resolve(__dirname, '../..');
export const MAIN = join(ROOT, 'dist/src/main.js');

/** `npm start` runs `npm run build` first; a spec run on its own builds when dist/ is older than the sources. */
export async function ensureBuilt(): Promise<void> {
  const newestSource = Math.max(...['src', 'migrations', 'scripts'].flatMap((directory) => sourceTimes(join(ROOT, directory))));
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestSource) return;
  try {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, timeout: 150_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout}${stderr}`, { cause: error });
  }
}

function sourceTimes(directory: string): number[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

const PORTS_PER_WORKER = 500;
let portsHandedOut = 0;

/**
 * A port for a child service to listen on. A port the kernel picks (`listen(0)`) and releases can
 * be picked again by another jest worker, or taken by an outgoing connection, before the child
 * binds it; so each worker takes its ports from its own slice of 10000–29999, below the kernel's
 * ephemeral range, and skips those in use.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? 1);
  const base = 10_000 + ((worker - 1) % 40) * PORTS_PER_WORKER;
  for (let tries = 0; tries < PORTS_PER_WORKER; tries++) {
    const port = base + (portsHandedOut++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + PORTS_PER_WORKER - 1}`);
}

/**
 * `node dist/src/main.js` with only the environment a new user's shell would add to PATH and HOME;
 * `command`: another way to start it, e.g. an installed package's `tollgate start`.
 */
export function spawnService(
  env: Record<string, string>,
  cwd: string,
  children: Set<ChildProcess>,
  command: readonly string[] = [process.execPath, MAIN],
): ChildProcess {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  return child;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runToExit(child: ChildProcess, timeoutMs: number): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveExit, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not exit within ${timeoutMs} ms\n${stdout}${stderr}`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the pipes drain before reporting what the process wrote.
      setImmediate(() => resolveExit({ code, signal, stdout, stderr }));
    });
  });
}

export interface RunningService {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
}

/** Starts the service from the project directory, as `npm start` does (or by `command` in `cwd`), and waits until it answers. */
export async function startService(env: Record<string, string>, children: Set<ChildProcess>, command?: readonly string[], cwd = ROOT): Promise<RunningService> {
  const child = spawnService(env, cwd, children, command);
  const exited = runToExit(child, 170_000);
  let early: Exit | undefined;
  void exited.then(
    (exit) => (early = exit),
    () => undefined,
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (early) throw new Error(`the service exited with ${early.code ?? early.signal} before it answered:\n${early.stdout}${early.stderr}`);
    if (Date.now() > deadline) throw new Error('the service did not answer within 90 s');
    const response = await fetch(`http://127.0.0.1:${env.PORT}/.well-known/openid-configuration`).catch(() => undefined);
    if (response?.status === 200) return { child, exited };
    await new Promise((wait) => setTimeout(wait, 200));
  }
}

/** SIGTERM, as a process manager stops it: the service shuts down cleanly and releases DATA_DIR. */
export async function stop(service: RunningService): Promise<string> {
  service.child.kill('SIGTERM');
  const { code, signal, stdout, stderr } = await service.exited;
  if (code !== 0) throw new Error(`the service did not stop cleanly (code ${code}, signal ${signal}):\n${stdout}${stderr}`);
  return `${stdout}${stderr}`;
}

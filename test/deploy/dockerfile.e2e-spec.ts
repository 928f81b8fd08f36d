import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { freePort, ROOT, runToExit } from '../support/built-service';
import { testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { request, requestToken } from '../support/http';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

interface Stage {
  readonly name: string;
  readonly instructions: Instruction[];
}

/** The Dockerfile's stages and their instructions: continuation lines joined, comments and the parser directive left out. */
function parseDockerfile(source: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of source.replace(/\\\n/g, ' ').split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, keyword, args] = match;
    if (keyword === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    else stages.at(-1)?.instructions.push({ keyword, args: args.trim() });
  }
  return stages;
}

/** `COPY [--from=stage] source… destination`. */
function copyInstruction(args: string): { from?: string; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
  return { from, sources: words.slice(0, -1), destination: words.at(-1)! };
}

/**
 * The Dockerfile, carried out without a container engine (there is none in CI; scripts/container-check.sh
 * builds the real image where there is, docs/operations.md#container-image): each stage's `COPY` lines are
 * applied to a scratch directory standing for its /app, from the build context (what .dockerignore leaves)
 * or from the build stage; `npm ci` is a link to this checkout's node_modules; the build stage's other `RUN`
 * lines run there. The image's /app must then hold every file its `RUN` lines and `CMD` name, the package's
 * `main` and `bin`, and its `CMD` must serve: so a directory the build needs and the Dockerfile does not
 * copy (cli/, once) fails here. The scratch directories are outside the checkout, so the service cannot find
 * the checkout's views/ instead of the image's.
 */
describe('Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').filter(Boolean);
  const children = new Set<ChildProcess>();
  let scratch: string;
  const stageDirectories = new Map<string, string>();

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'tollgate-dockerfile-'));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** A stage's COPY lines and (for the build stage) its RUN lines, into <scratch>/<stage>, standing for /app. */
  async function carryOut(stage: Stage, runCommands: boolean): Promise<string> {
    const app = join(scratch, stage.name);
    await mkdir(app, { recursive: true });
    for (const { keyword, args } of stage.instructions) {
      if (keyword === 'WORKDIR') expect(args).toBe('/app');
      if (keyword === 'COPY') {
        const { from, sources, destination } = copyInstruction(args);
        for (const source of sources) {
          const origin = from === undefined ? join(ROOT, source) : join(stageDirectories.get(from)!, posix.relative('/app', source));
          if (from === undefined) expect({ source, ignored: ignored.includes(source.split('/')[0]) }).toEqual({ source, ignored: false });
          expect({ source, exists: existsSync(origin) }).toEqual({ source, exists: true });
          const target = destination.endsWith('/') ? join(app, destination, posix.basename(source)) : join(app, destination);
          await mkdir(dirname(target), { recursive: true });
          await cp(origin, target, { recursive: true });
        }
      }
      if (keyword === 'RUN' && /^npm ci\b/.test(args)) await symlink(join(ROOT, 'node_modules'), join(app, 'node_modules'));
      else if (keyword === 'RUN' && runCommands) {
        const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: scratch };
        await promisify(execFile)('sh', ['-c', args], { cwd: app, env, timeout: 150_000 });
      }
    }
    stageDirectories.set(stage.name, app);
    return app;
  }

  it('builds in two stages, from one pinned Node LTS image', () => {
    expect(stages.map((stage) => stage.name)).toEqual(['build', 'runtime']);
    const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    // An exact release of an even (LTS) line, one that package.json's engines name.
    expect(image).toMatch(/^node:(22|24|26)\.\d+\.\d+-bookworm-slim$/);
    const major = image!.slice('node:'.length).split('.')[0];
    const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(engines.node).toMatch(new RegExp(`(^|\\|\\|)\\s*(\\^|>=)${major}\\.`));
  });

  it("copies everything the image runs: its CMD serves discovery, a token and the sign-in pages' stylesheet, and `tollgate` answers", async () => {
    const [build, runtime] = stages;
    await carryOut(build, true);
    const app = await carryOut(runtime, false);

    const runtimeRuns = runtime.instructions.filter(({ keyword }) => keyword === 'RUN' || keyword === 'CMD' || keyword === 'HEALTHCHECK');
    const named = runtimeRuns.flatMap(({ args }) => args.match(/\bdist\/[\w./-]+\.js\b/g) ?? []);
    const { main, bin } = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { main: string; bin: Record<string, string> };
    for (const file of [...named, main, ...Object.values(bin)]) expect({ file, exists: existsSync(join(app, file)) }).toEqual({ file, exists: true });

    const cmd = JSON.parse(runtime.instructions.find(({ keyword }) => keyword === 'CMD')!.args) as string[];
    expect(cmd[0]).toBe('node');
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      // The image's ENV, with the run's database and a free port on loopback.
      NODE_ENV: 'production',
      ISSUER: 'https://tollgate.check',
      DATABASE_URL: testDatabaseUrl(),
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(scratch, 'data'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: '0',
    };
    const service = spawn(process.execPath, cmd.slice(1), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(service);
    const exited = runToExit(service, 150_000);
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    let discovery = await request(`${base}/.well-known/openid-configuration`).catch(() => undefined);
    while (discovery?.status !== 200 && service.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      discovery = await request(`${base}/.well-known/openid-configuration`).catch(() => undefined);
    }
    try {
      expect(discovery?.body.issuer).toBe('https://tollgate.check');
      expect((await requestToken(base, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' })).status).toBe(200);
      const stylesheet = await request(`${base}/interaction/tollgate.css`);
      expect({ status: stylesheet.status, type: stylesheet.headers.get('content-type') }).toEqual({ status: 200, type: 'text/css; charset=utf-8' });
    } finally {
      service.kill('SIGTERM');
    }
    expect((await exited).code).toBe(0);

    // The operator commands, as `tollgate` in the image runs them.
    const tollgate = spawn(process.execPath, [bin.tollgate, 'migrate', '--check'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(tollgate);
    expect(await runToExit(tollgate, 60_000)).toMatchObject({ code: 0, stdout: 'No pending migration.\n' });
  }, 240_000);
});

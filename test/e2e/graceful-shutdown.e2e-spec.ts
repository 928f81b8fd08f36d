import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { TEST_KEY_ENCRYPTION_KEY, ISSUER, testDatabaseUrl } from '../support/create-test-app';
import { ensureBuilt, freePort, startService, stop, type RunningService } from '../support/built-service';
import { basic, toForm } from '../support/http';

const TOKEN_REQUEST = toForm({ grant_type: 'client_credentials', scope: 'api1' });

type Outcome = { kind: 'answered'; status: number } | { kind: 'refused' } | { kind: 'failed'; reason: string };

/** One token request on a new connection. A refused connection never reached the server. */
function tokenRequest(port: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/connect/token',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('m2m', 'm2m-secret') },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0 }));
        res.on('error', (error) => resolve({ kind: 'failed', reason: error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'failed', reason: error.message }));
    req.end(TOKEN_REQUEST);
  });
}

/**
 * Two instances behind a (simulated) load balancer, one restarted under load. Like a real
 * balancer, it routes only to instances whose /health/ready answers 200 (polled every 100 ms), and
 * sends a request to the other instance when a connection is refused; every request must get 200.
 */
describe('graceful shutdown under load', () => {
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('finishes in-flight requests, exits 0 on SIGTERM, and loses no request across a restart', async () => {
    await ensureBuilt();
    const env = (port: number) => ({
      PORT: String(port),
      HOST: '127.0.0.1',
      ISSUER,
      DATABASE_URL: testDatabaseUrl(),
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      RATE_LIMIT_PER_CLIENT: '0',
      RATE_LIMIT_PER_ADDRESS: '0',
      SHUTDOWN_DRAIN_SECONDS: '1',
    });
    const ports = [await freePort(), await freePort()];
    const instances: RunningService[] = await Promise.all(ports.map((port) => startService(env(port), children)));

    const failures: string[] = [];
    let answered = 0;
    let next = 0;
    let loadRunning = true;
    const ready = new Set(ports);
    const pollReadiness = async () => {
      while (loadRunning) {
        for (const port of ports) {
          const healthy = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
            (response) => response.ok,
            () => false,
          );
          if (healthy) ready.add(port);
          else ready.delete(port);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const worker = async () => {
      while (loadRunning) {
        const candidates = ports.filter((port) => ready.has(port));
        if (candidates.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        const first = candidates[next++ % candidates.length];
        let outcome = await tokenRequest(first);
        if (outcome.kind === 'refused') outcome = await tokenRequest(ports.find((port) => port !== first)!);
        if (outcome.kind === 'answered' && outcome.status === 200) answered++;
        else failures.push(outcome.kind === 'answered' ? `status ${outcome.status}` : outcome.kind === 'failed' ? outcome.reason : 'both refused');
      }
    };
    const load = Promise.all([pollReadiness(), ...Array.from({ length: 8 }, worker)]);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stop(instances[0]); // throws unless the process exits with code 0
    const answeredDuringRestart = answered;
    instances[0] = await startService(env(ports[0]), children);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    loadRunning = false;
    await load;
    await Promise.all(instances.map((instance) => stop(instance)));

    expect(failures).toEqual([]);
    expect(answeredDuringRestart).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(answeredDuringRestart);
  }, 120_000);
});

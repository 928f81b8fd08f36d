import type { ChildProcess } from 'node:child_process';
import { runToExit, type Exit } from './built-service';
import { LOAD_MARGIN_MS } from './token-lifecycle';

export interface LogLine {
  readonly level: number;
  readonly pid: number;
  readonly msg?: string;
  readonly context?: string;
  readonly req?: { readonly path: string };
}

/** The built service as one process (a single process, or a cluster's primary) with its output, read as pino's JSON lines. */
export class ServiceProcess {
  readonly exited: Promise<Exit>;
  private stdout = '';
  private exit?: Exit;

  /** `lifetimeMs`: how long it may run before `exited` rejects. */
  constructor(
    readonly child: ChildProcess,
    lifetimeMs = 60_000,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.exited = runToExit(child, lifetimeMs);
    this.exited.then(
      (exit) => (this.exit = exit),
      () => undefined,
    );
  }

  /** How it ended, or undefined while it runs. */
  get exitedWith(): Exit | undefined {
    return this.exit;
  }

  /** Everything it wrote to standard output so far. */
  get output(): string {
    return this.stdout;
  }

  /** The complete lines so far: the last one may still be arriving in pieces. */
  lines(): LogLine[] {
    return this.stdout
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** Pids of the processes that logged a message starting with `text`, in order. */
  pidsLogging(text: string): number[] {
    return this.lines()
      .filter((line) => line.msg?.startsWith(text))
      .map((line) => line.pid);
  }

  /** Workers start in seconds on a quiet machine; seen taking over 20 s at a load of 23 on two cores. */
  async waitFor(what: string, done: () => boolean, timeoutMs = 20_000): Promise<void> {
    for (const deadline = Date.now() + timeoutMs + LOAD_MARGIN_MS; !done(); await new Promise((wait) => setTimeout(wait, 100))) {
      const exit = this.exit;
      if (exit) throw new Error(`the service exited (${exit.code ?? exit.signal}) before ${what}:\n${exit.stdout}${exit.stderr}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms:\n${this.stdout}`);
    }
  }
}

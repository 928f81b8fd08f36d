import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StartupFailure } from '../logging/startup-failure';

/** Another live process holds DATA_DIR: its message says which and what to do, so it is logged without a stack trace. */
export class DataDirInUseError extends StartupFailure {}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export const LOCK_FILE = 'tollgate.pid';

/**
 * The embedded database is opened by one process at a time: PGlite keeps its state in memory and
 * writes DATA_DIR as if alone, so a second process (another instance, `tollgate keys:rotate`) would
 * neither see the first one's changes nor be seen by it. A lock file names the holder; one left by a
 * process that no longer runs (SIGKILL, power loss) is taken over. docs/operations.md#the-embedded-database-one-process-at-a-time
 */
export function lockDataDir(dataDir: string, now: Date = new Date()): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const self: Holder = { pid: process.pid, host: hostname(), startedAt: now.toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const descriptor = openSync(file, 'wx', 0o600);
      try {
        writeSync(descriptor, `${JSON.stringify(self)}\n`);
      } finally {
        closeSync(descriptor);
      }
      return { file, release: () => releaseIfOurs(file, self) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && isRunning(holder)) throw new DataDirInUseError(inUseMessage(dataDir, file, holder));
    // Stale or half-written: the holder is gone. Two processes racing here both unlink at most a
    // stale file; only one then creates it (O_EXCL), and the other sees the winner as running.
    if (attempt > 0) throw new DataDirInUseError(`DATA_DIR ${dataDir} could not be locked: ${file} keeps reappearing`);
    unlinkQuietly(file);
  }
}

function inUseMessage(dataDir: string, file: string, holder: Holder): string {
  const where = holder.host === hostname() ? `process ${holder.pid}` : `process ${holder.pid} on host ${holder.host}`;
  return (
    `DATA_DIR ${dataDir} is in use by ${where} (since ${holder.startedAt}): the embedded database serves one process at a time. ` +
    'Stop that process first (operator commands too), or use a PostgreSQL server (DATABASE_URL) to run several. ' +
    `If no such process runs, delete ${file}.`
  );
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return Number.isSafeInteger(holder.pid) && typeof holder.host === 'string' ? (holder as Holder) : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(holder: Holder): boolean {
  // A process on another host (a shared volume) cannot be checked from here: assume it runs.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseIfOurs(file: string, self: Holder): void {
  const holder = readHolder(file);
  if (holder?.pid === self.pid && holder.host === self.host && holder.startedAt === self.startedAt) unlinkQuietly(file);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

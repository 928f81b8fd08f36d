import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tollgate-lock-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const holder = (pid: number, host = hostname()) =>
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid, host, startedAt: '2026-11-23T10:00:00.000Z' }));

  it('refuses a directory held by a running process, naming it, what to do, and the file', () => {
    const parent = process.ppid;
    holder(parent);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(
      `DATA_DIR ${dataDir} is in use by process ${parent} (since 2026-11-23T10:00:00.000Z): the embedded database serves one process at a time. ` +
        `Stop that process first (operator commands too), or use a PostgreSQL server (DATABASE_URL) to run several. If no such process runs, delete ${join(dataDir, LOCK_FILE)}.`,
    );
  });

  it('refuses a second lock in the same process until the first is released', () => {
    const lock = lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
    lockDataDir(dataDir).release();
  });

  it('takes over a lock left by a process that no longer runs, or a file that is not a lock', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    holder(Number(gone.stdout));
    const lock = lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    lock.release();
    writeFileSync(join(dataDir, LOCK_FILE), 'garbage');
    lockDataDir(dataDir).release();
  });

  it('assumes a holder on another host runs (a shared volume), and says which host', () => {
    holder(1, 'other-host');
    expect(() => lockDataDir(dataDir)).toThrow(/in use by process 1 on host other-host/);
  });

  it('releases only its own lock', () => {
    const lock = lockDataDir(dataDir);
    rmSync(lock.file);
    holder(process.ppid);
    lock.release();
    expect(existsSync(lock.file)).toBe(true);
  });
});

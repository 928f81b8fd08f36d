import { availableParallelism } from 'node:os';
import { Transform } from 'class-transformer';
import { Satisfies, validateEnvironment, type Env } from './environment';

export const MAX_WORKERS = 64;

/** `WORKERS`: processes serving the one port (docs/operations.md#several-cores-workers). */
export interface WorkersConfig {
  /** 1: the started process serves, no cluster; more: it starts that many workers and supervises them. */
  readonly count: number;
  /** Why `WORKERS=auto` runs one process; logged once at start. */
  readonly singleProcessReason?: string;
}

export class WorkersEnvironment {
  @Transform(({ value }: { value: string }) => (/^\d+$/.test(value) ? Number(value) : value))
  @Satisfies(isWorkers, `an integer from 1 to ${MAX_WORKERS}, or "auto"`)
  WORKERS?: number | 'auto';
}

/** `auto` is one worker per core the process may use, with an upper bound (docs/operations.md#several-cores-workers). */
export function readWorkersConfig(env: Env, problems: string[], cores = availableParallelism()): WorkersConfig {
  const { variables: v, problems: refused } = validateEnvironment(WorkersEnvironment, env);
  problems.push(...refused);
  // The embedded database (PGlite) lives in the memory of one process (docs/operations.md#the-embedded-database-one-process-at-a-time).
  const embeddedDatabase = !env.DATABASE_URL;
  const requested = v.WORKERS ?? 1;
  if (requested === 'auto') {
    if (embeddedDatabase) return { count: 1, singleProcessReason: 'WORKERS=auto runs one process: the embedded database (no DATABASE_URL) serves one process' };
    return { count: Math.min(cores, MAX_WORKERS) };
  }
  if (requested > 1 && embeddedDatabase) {
    problems.push(`WORKERS must be 1 without DATABASE_URL: the embedded database serves one process (use a PostgreSQL server to run ${requested})`);
  }
  return { count: requested };
}

function isWorkers(value: unknown): boolean {
  return value === 'auto' || (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_WORKERS);
}

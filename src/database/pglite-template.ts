import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What the template needs of a PGlite instance. */
export interface DumpableDatabase {
  dumpDataDir(compression: 'none'): Promise<Blob>;
}

/**
 * An empty PGlite data directory, kept once per PGlite version in the user's cache
 * (`~/.cache/tollgate`), so that a new `DATA_DIR` is a copy instead of a new `initdb`, which costs
 * 5–15 s (docs/operations.md#starting-quickly). Only an optimisation: any failure here means initdb.
 */
export class PgliteTemplate {
  private readonly logger = new Logger(PgliteTemplate.name);

  constructor(private readonly file: string) {}

  /** The template for the installed PGlite, under `cacheDirectory`. */
  static forInstalledVersion(cacheDirectory = join(homedir(), '.cache', 'tollgate')): PgliteTemplate {
    let version = 'unknown';
    try {
      // The package's exports do not include its package.json: read it beside the entry point.
      const manifest = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
      version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    } catch {
      // An unreadable version gets its own template file.
    }
    return new PgliteTemplate(join(cacheDirectory, `pglite-${version}-datadir.tar`));
  }

  /** The saved template, or undefined when there is none (or it cannot be read). */
  async read(): Promise<Blob | undefined> {
    try {
      return new Blob([await readFile(this.file)]);
    } catch {
      return undefined;
    }
  }

  /** Saves a freshly initialised database, before anything is written to it. */
  async save(db: DumpableDatabase): Promise<void> {
    try {
      const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
      await mkdir(dirname(this.file), { recursive: true });
      const partial = `${this.file}.${process.pid}`;
      await writeFile(partial, tar);
      await rename(partial, this.file);
    } catch (error) {
      this.logger.debug(`No PGlite template saved in ${this.file}: ${(error as Error).message}`);
    }
  }

  /** Forgets a template that failed to load. */
  async discard(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

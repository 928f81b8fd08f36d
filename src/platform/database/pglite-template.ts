import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** What the template needs of a PGlite instance. */
export interface DumpableDatabase {
  dumpDataDir(compression: 'none'): Promise<Blob>;
}

/**
 * A PGlite data directory kept in the user's cache (`~/.cache/tollgate`), so that a new `DATA_DIR`
 * is a copy instead of an `initdb` and the migrations, which cost 10–20 s on a busy machine
 * (docs/operations.md#starting-quickly): one empty per PGlite version, and one migrated per PGlite
 * version and set of migrations. Only an optimisation: any failure here means initdb and migrations.
 */
export class PgliteTemplate {
  private readonly logger = new Logger(PgliteTemplate.name);

  constructor(private readonly file: string) {}

  /** The template for the installed PGlite: empty, or migrated to the schema named by `schema`. */
  static forInstalledVersion(schema?: string, cacheDirectory = join(homedir(), '.cache', 'tollgate')): PgliteTemplate {
    let version = 'unknown';
    try {
      // The package's exports do not include its package.json: read it beside the entry point.
      const manifest = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
      version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    } catch {
      // An unreadable version gets its own template file.
    }
    return new PgliteTemplate(join(cacheDirectory, `pglite-${version}-datadir${schema ? `-schema-${schema}` : ''}.tar`));
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
      await this.discardOtherSchemas();
    } catch (error) {
      this.logger.debug(`No PGlite template saved in ${this.file}: ${(error as Error).message}`);
    }
  }

  /** One migrated template per PGlite version is enough: those of earlier schemas go. */
  private async discardOtherSchemas(): Promise<void> {
    const name = basename(this.file);
    const prefix = name.includes('-schema-') ? name.slice(0, name.indexOf('-schema-') + '-schema-'.length) : undefined;
    if (!prefix) return;
    const others = (await readdir(dirname(this.file))).filter((file) => file.startsWith(prefix) && file.endsWith('.tar') && file !== name);
    await Promise.all(others.map((file) => rm(join(dirname(this.file), file), { force: true })));
  }

  /** Forgets a template that failed to load. */
  async discard(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

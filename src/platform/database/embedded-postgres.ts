import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { serveSessionsInTurn } from './pglite-session-queue';
import { PgliteTemplate, type DumpableDatabase } from './pglite-template';

/** Enough sockets for the pool; PGlite runs one backend, so more would only queue. */
export const EMBEDDED_POOL_SIZE = 5;

/**
 * The embedded default (docs/configuration.md): PGlite in `DATA_DIR`, served in-process over the PostgreSQL
 * wire protocol so that the ordinary `pg` driver, pool and migrations are used unchanged.
 */
@Injectable()
export class EmbeddedPostgres implements OnApplicationShutdown {
  private readonly logger = new Logger(EmbeddedPostgres.name);
  private stopServer?: () => Promise<void>;
  private lock?: DataDirLock;
  private readonly template = PgliteTemplate.forInstalledVersion();
  /** Set while a new data directory waits for its migrations, to be saved as that schema's template. */
  private pendingSchemaTemplate?: { template: PgliteTemplate; db: DumpableDatabase };

  /**
   * Starts PGlite in `dataDir` (or in memory for `memory://`) and returns a connection URL. `schema`
   * names the set of migrations: a new data directory starts from a copy already migrated to it
   * when there is one (saveSchemaTemplate).
   */
  async start(dataDir: string, schema?: string): Promise<string> {
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]).catch(
      (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' && (error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
        throw new Error('The embedded database (PGlite) is not installed here (the container image leaves it out): set DATABASE_URL');
      },
    );
    const location = dataDir.startsWith('memory://') ? dataDir : resolve(dataDir, 'pg');
    if (!dataDir.startsWith('memory://')) {
      await mkdir(location, { recursive: true });
      // Before PGlite opens the directory: a second process stops here (docs/operations.md#the-embedded-database-one-process-at-a-time).
      this.lock = lockDataDir(dataDir);
    }
    const schemaTemplate = schema ? PgliteTemplate.forInstalledVersion(schema) : undefined;
    const { db, migrated } = await this.open((options) => PGlite.create(location, options), location, schemaTemplate).catch((error: unknown) => {
      this.releaseLock();
      throw error;
    });
    if (schemaTemplate && migrated === false) this.pendingSchemaTemplate = { template: schemaTemplate, db };
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: EMBEDDED_POOL_SIZE * 2 });
    // pglite-socket's own queue lets two connections' statements interleave (electric-sql/pglite#1046).
    serveSessionsInTurn(server, db);
    await server.start();
    this.stopServer = async () => {
      await server.stop();
      await db.close();
    };
    this.logger.log(`Embedded PostgreSQL (PGlite) in ${location}`);
    return `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  }

  /**
   * An existing data directory as it is (`migrated` undefined); a new one from the migrated template,
   * else the empty one, else by initdb (which then saves the empty template).
   */
  private async open<T extends DumpableDatabase>(
    create: (options?: { loadDataDir: Blob }) => Promise<T>,
    location: string,
    schemaTemplate: PgliteTemplate | undefined,
  ): Promise<{ db: T; migrated?: boolean }> {
    if (!location.startsWith('memory://') && existsSync(join(location, 'PG_VERSION'))) return { db: await create() };
    for (const [template, migrated] of [
      [schemaTemplate, true],
      [this.template, false],
    ] as const) {
      const tar = await template?.read();
      if (!template || !tar) continue;
      try {
        return { db: await create({ loadDataDir: tar }), migrated };
      } catch (error) {
        this.logger.warn(`A cached PGlite template did not load (${(error as Error).message}): not using it`);
        await template.discard();
        if (!location.startsWith('memory://')) await rm(location, { recursive: true, force: true }).then(() => mkdir(location, { recursive: true }));
      }
    }
    this.logger.log(`Creating the embedded database in ${location} (initdb, once: about 10 s)…`);
    const db = await create();
    await this.template.save(db);
    return { db, migrated: false };
  }

  /** Once the migrations have run on a new data directory: saved for the next new one (before any data goes in). */
  async saveSchemaTemplate(): Promise<void> {
    const pending = this.pendingSchemaTemplate;
    this.pendingSchemaTemplate = undefined;
    await pending?.template.save(pending.db);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopServer?.();
    this.stopServer = undefined;
    this.releaseLock();
  }

  private releaseLock(): void {
    this.lock?.release();
    this.lock = undefined;
  }
}

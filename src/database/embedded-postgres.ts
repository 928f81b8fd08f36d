import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { serveSessionsInTurn } from './pglite-session-queue';

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

  /** Starts PGlite in `dataDir` (or in memory for `memory://`) and returns a connection URL. */
  async start(dataDir: string): Promise<string> {
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const location = dataDir.startsWith('memory://') ? dataDir : resolve(dataDir, 'pg');
    if (!dataDir.startsWith('memory://')) await mkdir(location, { recursive: true });
    const db = await PGlite.create(location);
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

  async onApplicationShutdown(): Promise<void> {
    await this.stopServer?.();
    this.stopServer = undefined;
  }
}

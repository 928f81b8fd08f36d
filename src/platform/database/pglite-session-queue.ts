/** The parts of PGlite the queue drives (structural, so this module does not load the ESM-only package). */
export interface PGliteBackend {
  runExclusive<T>(callback: () => Promise<T>): Promise<T>;
  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void>;
  isInTransaction(): boolean;
  exec(query: string): Promise<unknown>;
}

interface QueuedMessage {
  readonly handlerId: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  readonly resolve: (size: number) => void;
  readonly reject: (error: Error) => void;
}

const TERMINATE = 0x58; // 'X'
// ReadyForQuery with transaction status idle: 'Z', length 5, 'I' (PostgreSQL protocol §55.7).
const READY_FOR_QUERY_IDLE = [0x5a, 0, 0, 0, 5, 0x49];
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/**
 * A replacement for pglite-socket's query queue (0.2.x), which hands PGlite's one backend session
 * to whichever connection's next protocol *message* is first in line and only keeps it for one
 * connection while a transaction is open. An extended-query exchange (Parse, Bind, Describe,
 * Execute, Sync) spans several messages outside any transaction, so two connections' exchanges
 * interleave: one binds the other's unnamed statement and gets an error or, worse, the other's rows
 * (electric-sql/pglite#1046). This queue keeps the session for one connection until the backend
 * says ReadyForQuery with status idle: the end of a statement outside a transaction.
 */
export class SessionAffineQueryQueue {
  private queue: QueuedMessage[] = [];
  private draining = false;
  /** The connection the session belongs to until it is idle again. */
  private owner?: number;
  private inFlight?: number;
  /** Connections that closed while they held the session or had a message executing. */
  private readonly departed = new Set<number>();

  constructor(private readonly db: PGliteBackend) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    const [dropped, kept] = partition(this.queue, (queued) => queued.handlerId === handlerId);
    this.queue = kept;
    for (const queued of dropped) queued.reject(new Error('Handler disconnected'));
  }

  /** Called when a connection closes: frees the session if that connection held it. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId && this.inFlight !== handlerId) return;
    this.departed.add(handlerId);
    await this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        if (this.owner !== undefined && this.departed.has(this.owner)) {
          await this.release(this.owner);
          continue;
        }
        const next = this.owner === undefined ? 0 : this.queue.findIndex((queued) => queued.handlerId === this.owner);
        if (next < 0 || next >= this.queue.length) return;
        const [queued] = this.queue.splice(next, 1);
        await this.execute(queued);
      }
    } finally {
      this.draining = false;
    }
  }

  private async execute(queued: QueuedMessage): Promise<void> {
    this.inFlight = queued.handlerId;
    let tail: Uint8Array = new Uint8Array(0);
    let size = 0;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(queued.message, {
          onRawData: (data) => {
            size += data.length;
            tail = lastBytes(tail, data, READY_FOR_QUERY_IDLE.length);
            queued.onData(data);
          },
        }),
      );
      this.owner = queued.message[0] === TERMINATE || endsIdle(tail) ? undefined : queued.handlerId;
      queued.resolve(size);
    } catch (error) {
      // The session's state is unknown: it stays with this connection until it syncs or closes.
      this.owner = queued.handlerId;
      queued.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.inFlight = undefined;
      if (this.owner !== queued.handlerId) this.departed.delete(queued.handlerId);
    }
  }

  /** The owner closed mid-exchange or mid-transaction: end both before anyone else gets the session. */
  private async release(handlerId: number): Promise<void> {
    this.owner = undefined;
    this.departed.delete(handlerId);
    try {
      await this.db.runExclusive(() => this.db.execProtocolRawStream(SYNC, { onRawData: () => undefined }));
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } catch {
      // Nothing more can be done for a session whose client is gone; the next statement will tell.
    }
  }
}

/** Makes a pglite-socket server use `SessionAffineQueryQueue`; call before `start()`. */
export function serveSessionsInTurn(server: object, db: PGliteBackend): void {
  const internals = server as { queryQueue?: { enqueue?: unknown } };
  if (typeof internals.queryQueue?.enqueue !== 'function') {
    throw new Error('pglite-socket no longer has the query queue this service replaces; review src/database/pglite-session-queue.ts');
  }
  internals.queryQueue = new SessionAffineQueryQueue(db);
}

function endsIdle(tail: Uint8Array): boolean {
  return tail.length === READY_FOR_QUERY_IDLE.length && READY_FOR_QUERY_IDLE.every((byte, index) => tail[index] === byte);
}

function lastBytes(previous: Uint8Array, data: Uint8Array, count: number): Uint8Array {
  if (data.length >= count) return data.slice(data.length - count);
  const joined = new Uint8Array(previous.length + data.length);
  joined.set(previous);
  joined.set(data, previous.length);
  return joined.slice(Math.max(0, joined.length - count));
}

function partition<T>(items: readonly T[], predicate: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (predicate(item) ? yes : no).push(item);
  return [yes, no];
}

import { serveSessionsInTurn, SessionAffineQueryQueue, type PGliteBackend } from './pglite-session-queue';

/** A protocol message: its type byte, then (for this fake) the sender's tag as the body. */
function message(type: string, tag: string): Uint8Array {
  const body = Buffer.from(tag);
  const bytes = Buffer.alloc(5 + body.length);
  bytes.write(type, 0);
  bytes.writeInt32BE(4 + body.length, 1);
  body.copy(bytes, 5);
  return bytes;
}

const readyForQuery = (status: 'I' | 'T' | 'E') => Buffer.from([0x5a, 0, 0, 0, 5, status.charCodeAt(0)]);

/** A backend that logs what it executes and answers Sync/Query with ReadyForQuery in its current transaction state. */
class FakeBackend implements PGliteBackend {
  readonly executed: string[] = [];
  transactionStatus: 'I' | 'T' | 'E' = 'I';
  failNext = false;

  async runExclusive<T>(callback: () => Promise<T>): Promise<T> {
    return callback();
  }

  async execProtocolRawStream(bytes: Uint8Array, { onRawData }: { onRawData: (data: Uint8Array) => void }): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const type = String.fromCharCode(bytes[0]);
    this.executed.push(`${Buffer.from(bytes.subarray(5)).toString()}${type}`);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('backend failure');
    }
    if (type === 'S' || type === 'Q') onRawData(readyForQuery(this.transactionStatus));
    else onRawData(Buffer.from([0x31, 0, 0, 0, 4])); // ParseComplete-like
  }

  isInTransaction(): boolean {
    return this.transactionStatus !== 'I';
  }

  async exec(query: string): Promise<unknown> {
    this.executed.push(query);
    this.transactionStatus = 'I';
    return [];
  }
}

/** A connection as pglite-socket's handler drives it: one message at a time, each awaited. */
async function send(queue: SessionAffineQueryQueue, handlerId: number, types: string): Promise<void> {
  for (const type of types) await queue.enqueue(handlerId, message(type, String(handlerId)), () => undefined);
}

describe('SessionAffineQueryQueue', () => {
  it("serves one connection's extended-query exchange before another's", async () => {
    const backend = new FakeBackend();
    const queue = new SessionAffineQueryQueue(backend);
    await Promise.all([send(queue, 1, 'PBDES'), send(queue, 2, 'PBDES'), send(queue, 3, 'PBDES')]);
    expect(backend.executed).toEqual(['1P', '1B', '1D', '1E', '1S', '2P', '2B', '2D', '2E', '2S', '3P', '3B', '3D', '3E', '3S']);
  });

  it('keeps the session for a connection while its transaction is open', async () => {
    const backend = new FakeBackend();
    const queue = new SessionAffineQueryQueue(backend);
    backend.transactionStatus = 'T';
    await send(queue, 1, 'Q');
    const other = send(queue, 2, 'Q');
    await send(queue, 1, 'PBES');
    backend.transactionStatus = 'I';
    await send(queue, 1, 'Q');
    await other;
    expect(backend.executed).toEqual(['1Q', '1P', '1B', '1E', '1S', '1Q', '2Q']);
  });

  it('ends the exchange and rolls back when the connection holding the session closes', async () => {
    const backend = new FakeBackend();
    const queue = new SessionAffineQueryQueue(backend);
    backend.transactionStatus = 'T';
    await send(queue, 1, 'QP');
    const other = send(queue, 2, 'Q');
    queue.clearQueueForHandler(1);
    await queue.clearTransactionIfNeeded(1);
    await other;
    expect(backend.executed).toEqual(['1Q', '1P', 'S', 'ROLLBACK', '2Q']);
  });

  it('leaves the session alone when a connection that does not hold it closes', async () => {
    const backend = new FakeBackend();
    const queue = new SessionAffineQueryQueue(backend);
    await send(queue, 1, 'Q');
    await queue.clearTransactionIfNeeded(1);
    expect(backend.executed).toEqual(['1Q']);
  });

  it('rejects the queued messages of a closed connection', async () => {
    const backend = new FakeBackend();
    const queue = new SessionAffineQueryQueue(backend);
    backend.transactionStatus = 'T';
    await send(queue, 1, 'Q');
    const waiting = queue.enqueue(2, message('Q', '2'), () => undefined);
    queue.clearQueueForHandler(2);
    await expect(waiting).rejects.toThrow('Handler disconnected');
    expect(queue.getQueueLength()).toBe(0);
  });

  it('rejects a message the backend fails on and keeps serving the others', async () => {
    const backend = new FakeBackend();
    const queue = new SessionAffineQueryQueue(backend);
    backend.failNext = true;
    await expect(send(queue, 1, 'P')).rejects.toThrow('backend failure');
    const other = send(queue, 2, 'Q');
    queue.clearQueueForHandler(1);
    await queue.clearTransactionIfNeeded(1);
    await other;
    expect(backend.executed).toEqual(['1P', 'S', '2Q']);
  });
});

describe('serveSessionsInTurn', () => {
  it('replaces the query queue of a pglite-socket server', () => {
    const server = { queryQueue: { enqueue: () => undefined } };
    serveSessionsInTurn(server, new FakeBackend());
    expect(server.queryQueue).toBeInstanceOf(SessionAffineQueryQueue);
  });

  it('refuses a server without the queue it replaces, so an upgrade cannot silently drop the fix', () => {
    expect(() => serveSessionsInTurn({}, new FakeBackend())).toThrow(/query queue/);
  });
});

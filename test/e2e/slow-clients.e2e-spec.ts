import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { basic, request, requestToken } from '../support/http';

const CAP = 4;

/**
 * Slow clients: a request counts against MAX_CONCURRENT_REQUESTS only once its body is read, so
 * connections trickling their bodies cannot take the service down; liveness is never refused for
 * load; the header (10 s) and whole-request (30 s) timeouts hold to within about a second.
 */
describe('slow clients', () => {
  let server: TestServer;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer({ MAX_CONCURRENT_REQUESTS: String(CAP) });
    port = Number(new URL(server.url).port);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  afterAll(() => server.close());

  /** A connection that sends `head` and then nothing more until the test ends; resolves with what it received and when. */
  function stalled(head: string): { socket: Socket; closed: Promise<{ afterMs: number; received: string }> } {
    const socket = connect({ host: '127.0.0.1', port });
    sockets.push(socket);
    let received = '';
    const started = Date.now();
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(head));
    return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve({ afterMs: Date.now() - started, received }))) };
  }

  const tokenRequestHead = (contentLength: number) =>
    `POST /connect/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('m2m', 'm2m-secret')}\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${contentLength}\r\n\r\ngrant_type=`;

  it(`serves liveness and token requests while ${CAP * 2} connections trickle their bodies`, async () => {
    const trickling = Array.from({ length: CAP * 2 }, () => stalled(tokenRequestHead(200)));
    await sleep(300);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const { socket } of trickling) socket.write('c');
      statuses.push((await request(`${server.url}/health/live`)).status);
      statuses.push((await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' })).status);
      await sleep(200);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(trickling.filter(({ socket }) => socket.destroyed)).toHaveLength(0);
  });

  it('answers liveness even when the cap is taken by requests being served', async () => {
    // Password grants are slow (scrypt): many at once fill the cap.
    const busy = Array.from({ length: CAP * 4 }, () =>
      requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'bob', password: 'bob', scope: 'openid' }),
    );
    const live = await Promise.all(Array.from({ length: 5 }, () => request(`${server.url}/health/live`)));
    const tokens = await Promise.all(busy);
    expect(live.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(tokens.some((response) => response.status === 503)).toBe(true);
  });

  it('closes a connection that sends no complete headers within 10 s, and one that sends no complete body within 30 s, each within about a second', async () => {
    const headers = stalled('POST /connect/token HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const body = stalled(tokenRequestHead(100));
    // Keep the body connection active, so only the whole-request timeout can end it.
    const keepTrickling = setInterval(() => body.socket.write('c'), 1000);
    try {
      const [headersClosed, bodyClosed] = await Promise.all([headers.closed, body.closed]);
      expect(headersClosed.afterMs).toBeGreaterThanOrEqual(9_500);
      expect(headersClosed.afterMs).toBeLessThan(12_500);
      expect(headersClosed.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(bodyClosed.afterMs).toBeGreaterThanOrEqual(29_500);
      expect(bodyClosed.afterMs).toBeLessThan(32_500);
    } finally {
      clearInterval(keepTrickling);
    }
  }, 60_000);
});

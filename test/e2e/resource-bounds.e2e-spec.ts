import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { basic, postForm, request, requestToken } from '../support/http';

const SLOW_CLIENTS = 200;

/**
 * Resource bounds (docs/security.md): request headers over 16 KiB, bodies over 64 KiB, the connection and
 * request timeouts, and slow clients that dribble their headers (slow loris) while a normal
 * request is still served. Everything stays on 127.0.0.1 and is bounded in count and time.
 */
describe('resource bounds', () => {
  let server: TestServer;
  let port: number;
  const clientCredentials = () => requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });

  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  it('answers request headers over 16 KiB with 431 and a JSON OAuth error, and keeps serving', async () => {
    const response = await rawRequest(port, `GET /connect/userinfo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_request', error_description: 'the request headers are too large' });
    expect((await clientCredentials()).status).toBe(200);
  });

  it('answers bytes that are not HTTP with 400 and a JSON OAuth error', async () => {
    const response = await rawRequest(port, 'POST /connect/token HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_request', error_description: 'the request is not valid HTTP/1.1' });
  });

  it('refuses a body over 64 KiB with 413 invalid_request, and keeps serving', async () => {
    const response = await postForm(`${server.url}/connect/token`, `grant_type=client_credentials&scope=${'a'.repeat(64 * 1024)}`, {
      authorization: basic('m2m', 'm2m-secret'),
    });
    expectTokenError(response, 413, 'invalid_request');
    expect((await clientCredentials()).status).toBe(200);
  });

  it('bounds how long a connection may take to send its request and may idle', () => {
    const http = server.app.getHttpServer() as Server;
    expect(http.requestTimeout).toBe(30_000);
    expect(http.headersTimeout).toBe(10_000);
    expect(http.keepAliveTimeout).toBe(5_000);
  });

  it(`serves normal requests while ${SLOW_CLIENTS} slow clients dribble their headers byte by byte`, async () => {
    const header = Buffer.from(
      `POST /connect/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('m2m', 'm2m-secret')}\r\nX-Slow: ${'s'.repeat(200)}\r\n`,
    );
    const sockets: Socket[] = [];
    let answeredEarly = 0;
    try {
      for (let index = 0; index < SLOW_CLIENTS; index++) {
        const socket = connect({ host: '127.0.0.1', port });
        socket.on('data', () => answeredEarly++);
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      await Promise.all(sockets.map((socket) => new Promise((resolveConnect) => socket.once('connect', resolveConnect))));
      // Every slow client sends one more byte every 20 ms for about two seconds, never ending its headers.
      const served: number[] = [];
      for (let tick = 0; tick < 100; tick++) {
        for (const socket of sockets) socket.write(header.subarray(tick, tick + 1));
        if (tick % 20 === 10) served.push((await clientCredentials()).status);
        await sleep(20);
      }
      served.push((await request(`${server.url}/.well-known/openid-configuration`)).status);
      expect(served).toEqual([200, 200, 200, 200, 200, 200]);
      // The slow clients were neither answered nor dropped: they only held their own sockets.
      expect(answeredEarly).toBe(0);
      expect(sockets.filter((socket) => socket.destroyed)).toHaveLength(0);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    expect((await clientCredentials()).status).toBe(200);
  });
});

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends raw bytes and reads until the server closes the connection. */
function rawRequest(port: number, text: string): Promise<RawResponse> {
  return new Promise((resolveResponse, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolveResponse({ status: Number(statusLine.split(' ')[1]), headers, body: received.slice(end + 4) });
    });
    socket.on('connect', () => socket.write(Buffer.from(text, 'latin1')));
  });
}

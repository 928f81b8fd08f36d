import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server that serves whatever a test sets, and counts the requests it got. */
export interface JwksTestServer {
  readonly url: string;
  /** Requests served so far. */
  readonly hits: () => number;
  serve(body: unknown, options?: { status?: number; delayMs?: number; headers?: Record<string, string> }): void;
  close(): Promise<void>;
}

export async function startJwksServer(): Promise<JwksTestServer> {
  let hits = 0;
  let reply: { body: unknown; status: number; delayMs: number; headers: Record<string, string> } = { body: { keys: [] }, status: 200, delayMs: 0, headers: {} };
  const server: Server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    hits += 1;
    const { body, status, delayMs, headers } = reply;
    setTimeout(() => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks`,
    hits: () => hits,
    serve(body, options = {}) {
      reply = { body, status: options.status ?? 200, delayMs: options.delayMs ?? 0, headers: options.headers ?? {} };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

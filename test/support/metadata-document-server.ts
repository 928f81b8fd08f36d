import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A client's web server on 127.0.0.1 (port 0), serving client ID metadata documents
 * (docs/agents.md). Under the tests' http issuer, http on loopback is accepted. `document(path, body)`
 * serves JSON; `route(path, handler)` anything else; `hits` counts requests per path.
 */
export interface MetadataDocumentServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly base: string;
  /** The client_id that a document served at `path` must carry: `${base}${path}`. */
  urlOf(path: string): string;
  document(path: string, body: unknown, headers?: Record<string, string>): string;
  route(path: string, handler: Route): string;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startMetadataDocumentServer(): Promise<MetadataDocumentServer> {
  const routes = new Map<string, Route>();
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (route) return route(request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urlOf = (path: string) => `${base}${path}`;
  return {
    base,
    urlOf,
    document(path, body, headers = {}) {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      routes.set(path, (_request, response) => response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(text));
      return urlOf(path);
    },
    route(path, handler) {
      routes.set(path, handler);
      return urlOf(path);
    },
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

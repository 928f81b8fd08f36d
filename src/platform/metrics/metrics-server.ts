import { createServer, type Server } from 'node:http';
import { loggablePath } from '../logging/request-logger';

export interface ScrapeSource {
  /** The exposition text of a scrape. */
  metrics(): Promise<string>;
  readonly contentType: string;
}

/**
 * The HTTP server of METRICS_PORT: `GET /metrics` answers from `source`, anything else 404
 * (docs/operations.md#metrics). `logScrape` hears each answered request.
 */
export async function listenForScrapes(source: ScrapeSource, host: string, port: number, logScrape: (line: string) => void): Promise<Server> {
  const server = createServer((request, response) => {
    response.once('finish', () => logScrape(`${request.method} ${loggablePath(request.url ?? '')} ${response.statusCode}`));
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    source.metrics().then(
      (body) => response.writeHead(200, { 'content-type': source.contentType, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

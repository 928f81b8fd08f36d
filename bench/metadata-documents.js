'use strict';
/**
 * The agents' web server for the authorization scenarios: client ID metadata documents
 * (docs/agents.md) served over http on 127.0.0.1, as test/support/metadata-document-server.ts serves
 * them to the e2e specs. The bench's issuer is http (ALLOW_INSECURE_ISSUER), under which Tollgate
 * accepts http documents on loopback (docs/agents.md#what-a-self-registered-client-may-do, development); production would need https on a
 * public address. Every path is a document whose client_id is its own URL, cacheable for an hour.
 */
const http = require('node:http');

const REDIRECT_URI = 'https://agent.example/callback';

/** @returns {Promise<{ base: string, hits: () => number, close: () => void }>} */
async function startMetadataDocumentServer() {
  let hits = 0;
  const server = http.createServer((request, response) => {
    hits++;
    const body = JSON.stringify({
      client_id: `${base}${(request.url ?? '/').split('?', 1)[0]}`,
      client_name: 'Bench agent',
      redirect_uris: [REDIRECT_URI],
    });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'max-age=3600' });
    response.end(body);
  });
  server.keepAliveTimeout = 5000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  // The harness exits when its work is done, documents or not.
  server.unref();
  const base = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  return { base, hits: () => hits, close: () => server.close() };
}

module.exports = { startMetadataDocumentServer, REDIRECT_URI };

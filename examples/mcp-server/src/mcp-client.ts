/**
 * An MCP client in a terminal, written with the official SDK, as the demo's pre-registered public
 * client `mcp-client`: it connects to the MCP server, is refused (401), discovers Tollgate from the
 * server's resource metadata, prints the sign-in URL for your browser, takes the code on its loopback
 * callback, and calls the `list_notes` tool (docs/mcp-example.md).
 *
 *   node dist/examples/mcp-server/src/mcp-client.js
 *   MCP_URL=… CLIENT_ID=… CALLBACK_PORT=… node dist/examples/mcp-server/src/mcp-client.js
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

const mcpUrl = new URL(process.env.MCP_URL ?? 'http://127.0.0.1:5180/mcp');
const callbackPort = Number(process.env.CALLBACK_PORT ?? 5181);
const redirectUrl = `http://127.0.0.1:${callbackPort}/callback`;
const state = randomBytes(16).toString('base64url');

/** Everything in memory: a real client would keep its tokens in the system's credential store. */
const saved: { client: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string } = {
  client: { client_id: process.env.CLIENT_ID ?? 'mcp-client' },
};
const provider: OAuthClientProvider = {
  redirectUrl,
  clientMetadata: { client_name: 'Demo MCP Client', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' },
  state: () => state,
  clientInformation: () => saved.client,
  saveClientInformation: (client) => void (saved.client = client),
  tokens: () => saved.tokens,
  saveTokens: (tokens) => void (saved.tokens = tokens),
  saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
  codeVerifier: () => saved.verifier ?? '',
  redirectToAuthorization: (url) => console.log(`Sign in (alice / alice) at:\n\n  ${url.href}\n`),
};

/** The redirect back from Tollgate: the code, once `state` is ours (the SDK leaves that check to the application). */
async function authorizationCode(callback: Server): Promise<string> {
  for (;;) {
    const [request, response] = (await once(callback, 'request')) as [IncomingMessage, ServerResponse];
    const url = new URL(request.url ?? '/', redirectUrl);
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      continue;
    }
    const code = url.searchParams.get('code');
    const ok = code !== null && url.searchParams.get('state') === state;
    response.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain' }).end(ok ? 'Signed in: back to the terminal.' : 'Sign-in failed.');
    if (!ok) throw new Error(`sign-in failed: ${url.searchParams.get('error') ?? 'wrong state'}`);
    return code;
  }
}

async function main(): Promise<void> {
  // Listening before the sign-in starts, so the browser's redirect always finds it.
  const callback = createServer().listen(callbackPort, '127.0.0.1');
  await once(callback, 'listening');
  try {
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    try {
      await new Client({ name: 'demo-mcp-client', version: '1.0.0' }).connect(first);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      await first.finishAuth(await authorizationCode(callback));
    }
  } finally {
    callback.close();
  }
  const client = new Client({ name: 'demo-mcp-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const result = await client.callTool({ name: 'list_notes' });
  console.log(JSON.stringify(result.structuredContent ?? result.content, null, 2));
  await client.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

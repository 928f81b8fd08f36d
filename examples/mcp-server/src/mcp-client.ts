/**
 * An MCP client in a terminal, written with the official SDK, as the demo's pre-registered public
 * client `mcp-client`: it connects to the MCP server, is refused (401), discovers Tollgate from the
 * server's resource metadata, prints the sign-in URL for your browser, takes the code on its loopback
 * callback, and calls a tool (docs/mcp-example.md). `TOOL=export_notes` shows step-up: the server
 * asks for a passkey sign-in (RFC 9470) and the client prints a second sign-in URL with `acr_values`.
 *
 *   node dist/examples/mcp-server/src/mcp-client.js
 *   MCP_URL=… CLIENT_ID=… CALLBACK_PORT=… TOOL=… node dist/examples/mcp-server/src/mcp-client.js
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { StepUp } from './step-up-client';

const mcpUrl = new URL(process.env.MCP_URL ?? 'http://127.0.0.1:5180/mcp');
const callbackPort = Number(process.env.CALLBACK_PORT ?? 5181);
const redirectUrl = `http://127.0.0.1:${callbackPort}/callback`;
const state = randomBytes(16).toString('base64url');
const stepUp = new StepUp();

/** Everything in memory: a real client would keep its tokens in the system's credential store. */
const saved: { client: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; discovery?: OAuthDiscoveryState } = {
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
  // SEP-2352: the code is redeemed at the authorization server that discovery found before the redirect.
  saveDiscoveryState: (discovery) => void (saved.discovery = discovery),
  discoveryState: () => saved.discovery,
  redirectToAuthorization: (url) => console.log(`Sign in (alice / alice) at:\n\n  ${stepUp.authorizationUrl(url).href}\n`),
};
const transport = () =>
  new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: stepUp.middleware(() => void (saved.tokens = undefined))(fetch) });

/** The redirect back from Tollgate, once `state` is ours (the SDK leaves that check to the application); finishAuth checks `iss`. */
async function callbackParameters(callback: Server): Promise<URLSearchParams> {
  for (;;) {
    const [request, response] = (await once(callback, 'request')) as [IncomingMessage, ServerResponse];
    const url = new URL(request.url ?? '/', redirectUrl);
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      continue;
    }
    const ok = url.searchParams.has('code') && url.searchParams.get('state') === state;
    response.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain' }).end(ok ? 'Signed in: back to the terminal.' : 'Sign-in failed.');
    if (!ok) throw new Error(`sign-in failed: ${url.searchParams.get('error') ?? 'wrong state'}`);
    return url.searchParams;
  }
}

async function main(): Promise<void> {
  // Listening before the sign-in starts, so the browser's redirect always finds it.
  const callback = createServer().listen(callbackPort, '127.0.0.1');
  await once(callback, 'listening');
  /** After an UnauthorizedError the user is at the sign-in page: the code of the redirect back is redeemed on the same transport. */
  const signedIn = async (error: unknown, current: StreamableHTTPClientTransport) => {
    if (!(error instanceof UnauthorizedError)) throw error;
    await current.finishAuth(await callbackParameters(callback));
  };
  try {
    let client = new Client({ name: 'demo-mcp-client', version: '1.0.0' });
    let current = transport();
    await client.connect(current).catch(async (error: unknown) => {
      await signedIn(error, current);
      // A started transport cannot be restarted: a new one connects with the new tokens.
      client = new Client({ name: 'demo-mcp-client', version: '1.0.0' });
      current = transport();
      await client.connect(current);
    });
    const call = () => client.callTool({ name: process.env.TOOL ?? 'list_notes' });
    // A step-up challenge (RFC 9470) ends in a second sign-in, with acr_values; then the call again.
    const result = await call().catch(async (error: unknown) => {
      await signedIn(error, current);
      return call();
    });
    console.log(JSON.stringify(result.structuredContent ?? result.content, null, 2));
    await client.close();
  } finally {
    callback.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

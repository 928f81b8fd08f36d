import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { accessTokenVerifier, refusal, scopesOf } from './access-tokens';
import { NOTES_API_AUDIENCE, NOTES_API_SCOPE, type RunningServer } from './notes-api';
import { exchangeToken, type ClientCredentials } from './token-exchange';

export interface NotesMcpServerOptions {
  /** Tollgate's authorization server metadata (RFC 8414): its issuer, JWKS and token endpoint. */
  readonly tollgate: OAuthMetadata;
  readonly port: number;
  readonly host?: string;
  /** This server's resource URI (RFC 8707), the `aud` of the tokens it accepts; by default its own URL, `http://<host>:<port>/mcp`. */
  readonly resourceUri?: string;
  /** The scopes a token must carry, published in the resource metadata (demo: `notes`). */
  readonly scopes?: readonly string[];
  /** This server's client at Tollgate, for token exchange (demo: `notes-mcp`). */
  readonly client: ClientCredentials;
  /** API 2, which the `list_notes` tool calls. */
  readonly notesApiUrl: string;
}

export interface RunningMcpServer extends RunningServer {
  /** The resource URI: where MCP clients connect and the `aud` of the tokens it accepts. */
  readonly resourceUri: string;
}

/**
 * An MCP server that is an OAuth protected resource: it publishes its resource metadata (RFC 9728),
 * which names Tollgate as its authorization server, accepts only Tollgate's tokens addressed to it,
 * and calls API 2 for the user with a token of its own, obtained by token exchange (RFC 8693).
 */
export async function startNotesMcpServer(options: NotesMcpServerOptions): Promise<RunningMcpServer> {
  const host = options.host ?? '127.0.0.1';
  const scopes = [...(options.scopes ?? ['notes'])];
  const { tollgate } = options;
  // Listening first: with port 0 the resource URI is known only now.
  const server = createServer();
  server.listen(options.port, host);
  await once(server, 'listening');
  const resourceUri = new URL(options.resourceUri ?? `http://${host}:${(server.address() as AddressInfo).port}/mcp`);

  const verify = accessTokenVerifier({ issuer: tollgate.issuer, jwksUri: String(tollgate.jwks_uri), audience: resourceUri.href });
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      // The SDK answers 401 for InvalidTokenError only; any other error would be a 500.
      const claims = await verify(token).catch((error: unknown) => {
        throw new InvalidTokenError(refusal(error));
      });
      return {
        token,
        clientId: String(claims.client_id),
        scopes: scopesOf(claims),
        expiresAt: claims.exp,
        resource: resourceUri,
        extra: { sub: claims.sub },
      };
    },
  };

  const listNotes = async (userToken: string) => {
    const token = await exchangeToken({
      tokenEndpoint: tollgate.token_endpoint,
      client: options.client,
      subjectToken: userToken,
      audience: NOTES_API_AUDIENCE,
      scope: NOTES_API_SCOPE,
    });
    const response = await fetch(`${options.notesApiUrl}/notes`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`the notes API answered ${response.status}`);
    return (await response.json()) as { sub: string; act: { client_id: string } | null; notes: string[] };
  };

  /** A server per request (the SDK's stateless mode): each call is authorized on its own token. */
  function mcpServer(): McpServer {
    const mcp = new McpServer({ name: 'tollgate-demo-notes', version: '1.0.0' });
    mcp.registerTool(
      'list_notes',
      {
        title: 'List my notes',
        description: "Lists the signed-in user's notes, read from the notes API on the user's behalf.",
        outputSchema: { sub: z.string(), act: z.looseObject({ client_id: z.string() }).nullable(), notes: z.array(z.string()) },
      },
      async (extra) => {
        const answer = await listNotes(extra.authInfo!.token);
        return { content: [{ type: 'text', text: answer.notes.join('\n') }], structuredContent: answer };
      },
    );
    return mcp;
  }

  // createMcpExpressApp checks the Host header of loopback servers (DNS rebinding).
  const app = createMcpExpressApp({ host });
  app.use(mcpAuthMetadataRouter({ oauthMetadata: tollgate, resourceServerUrl: resourceUri, scopesSupported: scopes, resourceName: 'Demo notes' }));
  const bearer = requireBearerAuth({
    verifier,
    requiredScopes: scopes,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resourceUri),
    expectedResource: resourceUri,
  });
  app.post(resourceUri.pathname, bearer, async (request, response) => {
    const mcp = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void Promise.all([transport.close(), mcp.close()]));
    await mcp.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  app.all(resourceUri.pathname, bearer, (_request, response) => {
    response
      .status(405)
      .set('allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  });
  server.on('request', app);

  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    resourceUri: resourceUri.href,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

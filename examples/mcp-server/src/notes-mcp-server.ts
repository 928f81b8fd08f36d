import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostHeaderValidation, originValidation, toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { accessTokenVerifier, refusal, scopesOf } from './access-tokens';
import { NOTES_API_AUDIENCE, NOTES_API_SCOPE, type RunningServer } from './notes-api';
import { STEP_UP_TOOL, stepUpChallenge } from './step-up';
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
  /** API 2, which the tools call. */
  readonly notesApiUrl: string;
}

export interface RunningMcpServer extends RunningServer {
  /** The resource URI: where MCP clients connect and the `aud` of the tokens it accepts. */
  readonly resourceUri: string;
}

const notesAnswer = z.object({ sub: z.string(), act: z.looseObject({ client_id: z.string() }).nullable(), notes: z.array(z.string()) });

/**
 * An MCP server (protocol 2026-07-28, and 2025-era clients statelessly) that is an OAuth protected
 * resource: it publishes its resource metadata (RFC 9728), which names Tollgate as its authorization
 * server, accepts only Tollgate's tokens addressed to it, and calls API 2 for the user with a token of
 * its own, obtained by token exchange (RFC 8693).
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
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUri);

  const verify = accessTokenVerifier({ issuer: tollgate.issuer, jwksUri: String(tollgate.jwks_uri), audience: resourceUri.href });
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token): Promise<AuthInfo> {
      // The SDK answers 401 for an OAuthError invalid_token only; any other error would be a 500.
      const claims = await verify(token).catch((error: unknown) => {
        throw new OAuthError(OAuthErrorCode.InvalidToken, refusal(error));
      });
      return {
        token,
        clientId: String(claims.client_id),
        scopes: scopesOf(claims),
        expiresAt: claims.exp,
        resource: resourceUri,
        extra: { sub: claims.sub, acr: claims.acr },
      };
    },
  };
  const bearer = requireBearerAuth({ verifier, requiredScopes: scopes, resourceMetadataUrl, expectedResource: resourceUri });

  const readNotes = async (userToken: string) => {
    const token = await exchangeToken({
      tokenEndpoint: tollgate.token_endpoint,
      client: options.client,
      subjectToken: userToken,
      audience: NOTES_API_AUDIENCE,
      scope: NOTES_API_SCOPE,
    });
    const response = await fetch(`${options.notesApiUrl}/notes`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`the notes API answered ${response.status}`);
    return notesAnswer.parse(await response.json());
  };

  /** A server per request: each call is authorized on its own token (`ctx.http.authInfo`, what the verifier returned). */
  const mcp = createMcpHandler(() => {
    const notes = new McpServer({ name: 'tollgate-demo-notes', version: '1.0.0' });
    notes.registerTool(
      'list_notes',
      {
        title: 'List my notes',
        description: "Lists the signed-in user's notes, read from the notes API on the user's behalf.",
        outputSchema: notesAnswer,
      },
      async (ctx) => {
        const answer = await readNotes(ctx.http!.authInfo!.token);
        return { content: [{ type: 'text', text: answer.notes.join('\n') }], structuredContent: answer };
      },
    );
    notes.registerTool(
      STEP_UP_TOOL,
      {
        title: 'Export my notes',
        description: 'Exports all of the signed-in user\'s notes; needs a phishing-resistant sign-in (a passkey, acr "phr").',
        outputSchema: notesAnswer,
      },
      async (ctx) => {
        const answer = await readNotes(ctx.http!.authInfo!.token);
        return { content: [{ type: 'text', text: JSON.stringify(answer.notes) }], structuredContent: answer };
      },
    );
    return notes;
  });

  const metadata = { oauthMetadata: tollgate, resourceServerUrl: resourceUri, scopesSupported: scopes, resourceName: 'Demo notes' };
  const node = toNodeHandler({
    async fetch(request) {
      const metadataDocument = oauthMetadataResponse(request, metadata);
      if (metadataDocument) return metadataDocument;
      if (new URL(request.url).pathname !== resourceUri.pathname) return Response.json({ error: 'not_found' }, { status: 404 });
      const auth = await bearer(request);
      if (auth instanceof Response) return auth;
      return (await stepUpChallenge(request, auth, resourceMetadataUrl)) ?? mcp.fetch(request, { authInfo: auth });
    },
  });
  // DNS rebinding and cross-site requests: only this server's own name in Host, and in Origin when a browser sends one.
  const validHost = hostHeaderValidation([resourceUri.hostname]);
  const validOrigin = originValidation([resourceUri.hostname]);
  server.on('request', (request, response) => {
    if (validHost(request, response) && validOrigin(request, response)) void node(request, response);
  });

  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    resourceUri: resourceUri.href,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

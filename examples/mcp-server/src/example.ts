import type { OAuthMetadata } from '@modelcontextprotocol/server';
import { startNotesApi, type NotesApiOptions, type RunningServer } from './notes-api';
import { startNotesMcpServer, type RunningMcpServer } from './notes-mcp-server';
import type { ClientCredentials } from './token-exchange';

export interface ExampleSettings {
  /** Tollgate's `ISSUER`. */
  readonly issuer: string;
  readonly mcpPort: number;
  /** The MCP server's resource URI; by default `http://127.0.0.1:<mcpPort>/mcp`. */
  readonly mcpResourceUri?: string;
  readonly notesApiPort: number;
  readonly client: ClientCredentials;
  readonly scopes?: readonly string[];
  readonly onNotesApiCall?: NotesApiOptions['onCall'];
}

/** The demo's settings (docs/mcp-example.md), each overridable from the environment. */
export function settingsFromEnvironment(env: NodeJS.ProcessEnv = process.env): ExampleSettings {
  return {
    issuer: env.TOLLGATE_ISSUER ?? 'http://localhost:5000',
    mcpPort: Number(env.MCP_PORT ?? 5180),
    mcpResourceUri: env.MCP_RESOURCE_URI,
    notesApiPort: Number(env.NOTES_API_PORT ?? 5182),
    client: { clientId: env.MCP_CLIENT_ID ?? 'notes-mcp', clientSecret: env.MCP_CLIENT_SECRET ?? 'notes-mcp-secret' },
  };
}

export interface RunningExample {
  readonly mcp: RunningMcpServer;
  readonly notesApi: RunningServer;
  close(): Promise<void>;
}

/** Reads Tollgate's metadata (RFC 8414), then starts API 2 and the MCP server in front of it. */
export async function startExample(settings: ExampleSettings): Promise<RunningExample> {
  // RFC 8414 §3.1: the well-known segment goes before the issuer's path, if it has one.
  const metadataUrl = new URL(settings.issuer);
  metadataUrl.pathname = `/.well-known/oauth-authorization-server${metadataUrl.pathname.replace(/\/$/, '')}`;
  const response = await fetch(metadataUrl);
  const tollgate = response.ok ? ((await response.json()) as OAuthMetadata) : undefined;
  if (!tollgate?.jwks_uri) throw new Error(`no authorization server metadata with a jwks_uri at ${settings.issuer}`);
  if (tollgate.issuer !== settings.issuer) throw new Error(`${settings.issuer} says its issuer is ${tollgate.issuer}`);
  const notesApi = await startNotesApi({
    issuer: tollgate.issuer,
    jwksUri: String(tollgate.jwks_uri),
    port: settings.notesApiPort,
    onCall: settings.onNotesApiCall,
  });
  const mcp = await startNotesMcpServer({
    tollgate,
    port: settings.mcpPort,
    resourceUri: settings.mcpResourceUri,
    scopes: settings.scopes,
    client: settings.client,
    notesApiUrl: notesApi.url,
  });
  return { mcp, notesApi, close: async () => void (await Promise.all([mcp.close(), notesApi.close()])) };
}

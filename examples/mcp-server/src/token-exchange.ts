/** The MCP server's own credentials at Tollgate: demo client `notes-mcp` (docs/demo-data.md). */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface ExchangeRequest {
  readonly tokenEndpoint: string;
  readonly client: ClientCredentials;
  /** The token the MCP client sent, addressed to the MCP server. */
  readonly subjectToken: string;
  /** The API the new token is for (its resource name or URI) and the scope it needs there. */
  readonly audience: string;
  readonly scope: string;
}

/** RFC 6749 §2.3.1: client_secret_basic form-encodes the id and secret before base64. */
const basic = ({ clientId, clientSecret }: ClientCredentials) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;

/**
 * RFC 8693 token exchange: the user's token, addressed to this MCP server, for a token addressed to
 * the downstream API, with the same user (`sub`) and this server as the actor (`act`). The MCP
 * server never forwards the token it received: that token is good for the MCP server only.
 */
export async function exchangeToken(request: ExchangeRequest): Promise<string> {
  const response = await fetch(request.tokenEndpoint, {
    method: 'POST',
    headers: { authorization: basic(request.client), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: request.subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      audience: request.audience,
      scope: request.scope,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new Error(`token exchange refused: ${response.status} ${typeof body.error === 'string' ? body.error : ''}`.trim());
  }
  return body.access_token;
}

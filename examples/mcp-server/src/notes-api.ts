import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWTPayload } from 'jose';
import { accessTokenVerifier, refusal, scopesOf } from './access-tokens';

/** The demo API resource this API is (docs/demo-data.md): its tokens carry `aud` `api2` and scope `api2`. */
export const NOTES_API_AUDIENCE = 'api2';
export const NOTES_API_SCOPE = 'api2';

const NOTES: Record<string, readonly string[]> = {
  '1': ['Renew the TLS certificates', 'Review the delegation chain'],
  '2': ['Buy milk'],
};

export interface NotesApiOptions {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly port: number;
  readonly host?: string;
  /** Sees every accepted call: the token and its claims (the tests check what reached the API). */
  readonly onCall?: (call: { readonly token: string; readonly claims: JWTPayload }) => void;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * API 2 of the chain, the downstream API of the MCP server: `GET /notes` answers the caller's notes,
 * with who the caller is (`sub`) and who acts for them (`act`, RFC 8693 §4.1).
 */
export async function startNotesApi(options: NotesApiOptions): Promise<RunningServer> {
  const verify = accessTokenVerifier({ issuer: options.issuer, jwksUri: options.jwksUri, audience: NOTES_API_AUDIENCE });
  const send = (response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const server = createServer(async (request, response) => {
    if (request.method !== 'GET' || request.url !== '/notes') return send(response, 404, { error: 'not_found' });
    const token = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '')?.[1];
    let claims: JWTPayload;
    try {
      if (!token) throw new Error('no bearer token');
      claims = await verify(token);
    } catch (error) {
      const description = refusal(error);
      return send(
        response,
        401,
        { error: 'invalid_token', error_description: description },
        {
          'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
        },
      );
    }
    if (!scopesOf(claims).includes(NOTES_API_SCOPE)) {
      return send(response, 403, { error: 'insufficient_scope' }, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${NOTES_API_SCOPE}"` });
    }
    options.onCall?.({ token, claims });
    send(response, 200, { sub: claims.sub, act: claims.act ?? null, notes: NOTES[claims.sub ?? ''] ?? [] });
  });
  server.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

import { request as httpRequest } from 'node:http';

/** A client's view of an HTTP exchange: real sockets, form-encoded bodies, parsed JSON. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- specs read arbitrary JSON members and assert on them
  readonly body: any;
}

export function basic(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

export function toForm(form: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const item of [value].flat()) params.append(name, item);
  return params.toString();
}

export async function request(url: string, init: RequestInit = {}): Promise<HttpResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the raw text is the body
  }
  return { status: response.status, headers: response.headers, body };
}

/** POSTs `application/x-www-form-urlencoded`, as OAuth clients do. */
export function postForm(url: string, form: Record<string, string | string[]> | string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return request(url, {
    method: 'POST',
    body: typeof form === 'string' ? form : toForm(form),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** A token request with client_secret_basic. */
export function requestToken(baseUrl: string, clientId: string, secret: string, form: Record<string, string | string[]>): Promise<HttpResponse> {
  return postForm(`${baseUrl}/connect/token`, form, { authorization: basic(clientId, secret) });
}

/** A user's access token from the demo `frontend` client (password grant). */
export async function userAccessToken(baseUrl: string, username = 'alice', scope = 'openid profile email role api1'): Promise<string> {
  const response = await requestToken(baseUrl, 'frontend', 'frontend-secret', { grant_type: 'password', username, password: username, scope });
  if (response.status !== 200) throw new Error(`password grant failed: ${JSON.stringify(response.body)}`);
  return response.body.access_token;
}

/** The decoded payload of a JWT, without verifying it (tests verify with jose separately). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as HttpResponse.body
export function jwtPayload(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
}

/**
 * An HTTP request from a chosen local address (127.0.0.2, 127.0.0.3, … all reach a server on
 * 127.0.0.1), so that one spec can play callers at different client addresses.
 */
export function requestFrom(localAddress: string, url: string, method: string, body = '', headers: Record<string, string> = {}): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method, localAddress, agent: false, headers: { 'content-length': Buffer.byteLength(body), ...headers } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the raw text is the body
          }
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) responseHeaders.set(name, [value].flat().join(', '));
          resolve({ status: incoming.statusCode ?? 0, headers: responseHeaders, body: parsed });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** POSTs a form from a chosen local address (requestFrom). */
export function postFormFrom(
  localAddress: string,
  url: string,
  form: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return requestFrom(localAddress, url, 'POST', toForm(form), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
}

/** A token request with client_secret_basic from a chosen local address. */
export function requestTokenFrom(
  localAddress: string,
  baseUrl: string,
  clientId: string,
  secret: string,
  form: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return postFormFrom(localAddress, `${baseUrl}/connect/token`, form, { authorization: basic(clientId, secret), ...headers });
}

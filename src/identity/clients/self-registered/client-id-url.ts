import { isLoopbackHost } from './outbound-address.policy';

/** As every client_id (src/client-auth): throttling keys and logs bound it. */
export const MAX_CLIENT_ID_URL_LENGTH = 200;

/** Whether a client_id is URL-shaped, so names a metadata document rather than a registered client. */
export function isClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Why a URL client_id cannot name a client ID metadata document, or undefined when it can
 * (draft-ietf-oauth-client-id-metadata-document §3): `https` with a path, no fragment, no user
 * information, no `.` or `..` segments, in its canonical form so that it compares exactly. With
 * `allowLoopbackHttp` (an http issuer: development), `http` on a loopback host is accepted too.
 */
export function clientIdUrlProblem(clientId: string, allowLoopbackHttp: boolean): string | undefined {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) return `a client_id URL must be at most ${MAX_CLIENT_ID_URL_LENGTH} characters`;
  if (clientId.includes('#')) return 'a client_id URL must not have a fragment';
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'the client_id is not a URL';
  }
  if (url.username !== '' || url.password !== '' || clientId.includes('@')) return 'a client_id URL must not carry user information';
  const http = url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !http) return 'a client_id URL must be https';
  const rawPath = clientId.slice(clientId.indexOf('/', url.protocol.length + 2)).split(/[?]/, 1)[0];
  if (rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'a client_id URL must not have . or .. path segments';
  if (url.pathname === '/' || url.pathname === '') return 'a client_id URL must have a path';
  if (url.href !== clientId) return 'a client_id URL must be in canonical form (lower-case scheme and host, no default port)';
  return undefined;
}

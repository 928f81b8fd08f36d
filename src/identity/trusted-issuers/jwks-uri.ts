import { isIP } from 'node:net';

const MAX_URI_LENGTH = 2000;

/**
 * Why a `jwks_uri` may not be used, or undefined when it may: https only, except http to a loopback
 * address (a local agent or a test server), since keys fetched in the clear could be swapped by anyone
 * on the path (RFC 7517 §8, RFC 8414 §2 `jwks_uri`).
 */
export function jwksUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return 'the jwks_uri is too long';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'the jwks_uri is not an absolute URL';
  }
  if (url.username || url.password) return 'the jwks_uri must not carry credentials';
  if (url.hash) return 'the jwks_uri must not have a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return 'the jwks_uri must be https (http only for a loopback address)';
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

import { OAuthError } from './oauth-error';

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly method: 'client_secret_basic' | 'client_secret_post';
}

const MAX_HEADER_LENGTH = 4096;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Parses `Authorization: Basic …` per RFC 7617, with RFC 6749 §2.3.1's form-urlencoding of the
 * client id and secret. Returns undefined when the header is absent or names another scheme.
 */
export function parseBasicCredentials(header: string | undefined): ClientCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic(?: +(.*))?$/is.exec(header.trim());
  if (!match) return undefined;
  const invalid = (description: string) => OAuthError.invalidClient(description, { challenge: 'Basic' });
  const encoded = (match[1] ?? '').trim();
  if (encoded.length === 0 || encoded.length > MAX_HEADER_LENGTH || !BASE64.test(encoded)) {
    throw invalid('malformed Basic authorization header');
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalid('malformed Basic authorization header');
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  // RFC 6749 §2.3.1 / Appendix A: client_id is VSCHAR; neither may hold NUL (PostgreSQL text cannot).
  if (clientId === undefined || clientSecret === undefined || clientId.length === 0 || `${clientId}:${clientSecret}`.includes('\0')) {
    throw invalid('malformed Basic authorization header');
  }
  return { clientId, clientSecret, method: 'client_secret_basic' };
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

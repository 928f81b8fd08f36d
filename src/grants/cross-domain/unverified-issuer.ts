import { OAuthError } from '../../index';

const MAX_ASSERTION_LENGTH = 16 * 1024;

/**
 * The `iss` an assertion claims, read before its signature is checked, to choose the keys that check
 * it; nothing else is believed before. Not a compact JWS, or no string `iss`: `invalid_grant`.
 */
export function unverifiedIssuer(assertion: string): string {
  const segments = assertion.split('.');
  if (assertion.length > MAX_ASSERTION_LENGTH || segments.length !== 3) throw OAuthError.invalidGrant('the assertion is not a compact JWS of at most 16 KiB');
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(segments[1], 'base64url').toString('utf8'));
  } catch {
    throw OAuthError.invalidGrant('the assertion payload is not JSON');
  }
  const iss = (claims as { iss?: unknown } | null)?.iss;
  if (typeof iss !== 'string' || iss.length === 0) throw OAuthError.invalidGrant('the assertion has no iss');
  return iss;
}

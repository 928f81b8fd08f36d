/**
 * The one rule for grant type names, applied alike by the service (a validator's `grantType`) and by
 * the operator commands (`client:migration --grant`): an absolute URI (RFC 6749 §4.5), or a short
 * name without `:` (RFC 6749 §A.10 `grant-name`). RFC 6749 registers four short names, all served
 * by Tollgate's own grants (an extension that claims one finds it taken); RFC 7591 registers
 * `implicit`, which is no token-endpoint grant, so nothing may be called that.
 */
export const MAX_GRANT_TYPE_LENGTH = 255;

// RFC 6749 §A.10: grant-name = 1*name-char, name-char = "-" / "." / "_" / DIGIT / ALPHA.
const SHORT_NAME = /^[-._A-Za-z0-9]+$/;
// RFC 3986 §3.1 scheme, then only characters a URI may hold (§2), none of them white space.
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const NOT_A_TOKEN_GRANT = new Set(['implicit']);

/** Why `name` cannot be a grant type, as a sentence naming it; `undefined` when it can. */
export function grantTypeNameProblem(name: string): string | undefined {
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  if (name.length === 0) return 'a grant type name must not be empty';
  if (name.length > MAX_GRANT_TYPE_LENGTH) return `grant type ${shown} is longer than ${MAX_GRANT_TYPE_LENGTH} characters`;
  if (name.includes(':')) {
    return ABSOLUTE_URI.test(name) ? undefined : `grant type ${shown} contains ":" but is not an absolute URI (RFC 6749 §4.5)`;
  }
  if (!SHORT_NAME.test(name)) return `grant type ${shown} must be an absolute URI or a short name of letters, digits and - . _ (RFC 6749 §A.10)`;
  if (NOT_A_TOKEN_GRANT.has(name)) return `grant type ${shown} is registered by RFC 7591 for a flow without a token request`;
  return undefined;
}

import { OAuthError } from './oauth-error';

export const OFFLINE_ACCESS = 'offline_access';
export const OPENID = 'openid';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const MAX_SCOPES = 100;

/** Whether `value` is one RFC 6749 §3.3 scope token. */
export function isScopeToken(value: string): boolean {
  return SCOPE_TOKEN.test(value);
}

/** Parses a `scope` parameter into distinct scope tokens, in request order. */
export function parseScope(value: string): string[] {
  const tokens = value.split(' ').filter((token) => token.length > 0);
  if (tokens.length === 0) throw OAuthError.invalidScope('scope must not be empty');
  if (tokens.length > MAX_SCOPES) throw OAuthError.invalidScope(`at most ${MAX_SCOPES} scopes may be requested`);
  const invalid = tokens.find((token) => !isScopeToken(token));
  if (invalid !== undefined) throw OAuthError.invalidScope('scope contains characters not allowed by RFC 6749 §3.3');
  return [...new Set(tokens)];
}

export function formatScope(scopes: readonly string[]): string {
  return scopes.join(' ');
}

/** Scopes a grant is asked for: named by the client, or defaulted from what the client is allowed. */
export interface RequestedScopes {
  readonly names: readonly string[];
  /** False when `scope` was omitted and `names` is the client's default set. */
  readonly explicit: boolean;
}

/**
 * docs/endpoints.md#scopes: every requested scope must be known and allowed for the client; an omitted `scope`
 * means every allowed scope except `offline_access`, which is never implied.
 */
export function resolveRequestedScopes(
  scopeParameter: string | undefined,
  allowedScopes: readonly string[],
  isKnownScope: (scope: string) => boolean,
): RequestedScopes {
  if (scopeParameter === undefined) {
    return { names: allowedScopes.filter((scope) => scope !== OFFLINE_ACCESS && isKnownScope(scope)), explicit: false };
  }
  const names = parseScope(scopeParameter);
  const unknown = names.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) throw OAuthError.invalidScope(`unknown scope: ${unknown.join(' ')}`);
  const notAllowed = names.filter((scope) => !allowedScopes.includes(scope));
  if (notAllowed.length > 0) throw OAuthError.invalidScope(`scope not allowed for this client: ${notAllowed.join(' ')}`);
  return { names, explicit: true };
}

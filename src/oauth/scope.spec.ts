import { OAuthError } from './oauth-error';
import { parseScope, resolveRequestedScopes } from './scope';

function errorOf(action: () => unknown): OAuthError {
  try {
    action();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('expected an OAuthError');
}

describe('parseScope', () => {
  it.each([
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('refuses %s as invalid_scope', (_, value) => {
    const error = errorOf(() => parseScope(value));
    expect([error.code, error.status, error.description]).toEqual(['invalid_scope', 400, 'scope must not be empty']);
  });

  it.each([
    ['a double quote', 'api1 "api2"'],
    ['a backslash', 'api\\1'],
    ['a tab separator', 'api1\tapi2'],
    ['a non-ASCII character', 'apï1'],
    ['a control character', 'api1\u0000'],
  ])('refuses a token with %s (RFC 6749 §3.3)', (_, value) => {
    const error = errorOf(() => parseScope(value));
    expect([error.code, error.description]).toEqual(['invalid_scope', 'scope contains characters not allowed by RFC 6749 §3.3']);
  });

  it('refuses more than 100 scopes', () => {
    const scopes = Array.from({ length: 101 }, (_, index) => `s${index}`).join(' ');
    const error = errorOf(() => parseScope(scopes));
    expect([error.code, error.description]).toEqual(['invalid_scope', 'at most 100 scopes may be requested']);
  });

  it('accepts exactly 100 scopes', () => {
    expect(parseScope(Array.from({ length: 100 }, (_, index) => `s${index}`).join(' '))).toHaveLength(100);
  });

  it('accepts every printable ASCII character the grammar allows', () => {
    expect(parseScope('urn:x-api!#$%&\'()*+,-./;<=>?@[]^_`{|}~')).toEqual(['urn:x-api!#$%&\'()*+,-./;<=>?@[]^_`{|}~']);
  });

  it('splits on spaces and drops duplicates, keeping the first position', () => {
    expect(parseScope('openid api1  openid profile api1')).toEqual(['openid', 'api1', 'profile']);
  });
});

describe('resolveRequestedScopes', () => {
  const known = new Set(['openid', 'profile', 'api1', 'api2', 'offline_access']);
  const isKnown = (scope: string) => known.has(scope);
  const allowed = ['openid', 'api1', 'offline_access', 'retired'];

  it('refuses an unknown scope as invalid_scope, naming it', () => {
    const error = errorOf(() => resolveRequestedScopes('openid nope', allowed, isKnown));
    expect([error.code, error.description]).toEqual(['invalid_scope', 'unknown scope: nope']);
  });

  it('refuses a known scope the client is not allowed as invalid_scope, naming it', () => {
    const error = errorOf(() => resolveRequestedScopes('openid api2 profile', allowed, isKnown));
    expect([error.code, error.description]).toEqual(['invalid_scope', 'scope not allowed for this client: api2 profile']);
  });

  it('refuses a malformed scope parameter', () => {
    expect(errorOf(() => resolveRequestedScopes('', allowed, isKnown)).code).toBe('invalid_scope');
  });

  it('defaults an omitted scope to the allowed, known scopes without offline_access', () => {
    expect(resolveRequestedScopes(undefined, allowed, isKnown)).toEqual({ names: ['openid', 'api1'], explicit: false });
  });

  it('returns requested scopes as explicit, offline_access included when asked for', () => {
    expect(resolveRequestedScopes('api1 offline_access api1', allowed, isKnown)).toEqual({
      names: ['api1', 'offline_access'],
      explicit: true,
    });
  });
});

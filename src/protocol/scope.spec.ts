import { parseScope, resolveRequestedScopes } from './scope';

const invalidScope = (description: string) => expect.objectContaining({ code: 'invalid_scope', status: 400, description });

describe('parseScope', () => {
  it.each([
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('refuses %s as invalid_scope', (_, value) => {
    expect(() => parseScope(value)).toThrow(invalidScope('scope must not be empty'));
  });

  it.each([
    ['a double quote', 'api1 "api2"'],
    ['a backslash', 'api\\1'],
    ['a tab separator', 'api1\tapi2'],
    ['a non-ASCII character', 'apï1'],
    ['a control character', 'api1\u0000'],
  ])('refuses a token with %s (RFC 6749 §3.3)', (_, value) => {
    expect(() => parseScope(value)).toThrow(invalidScope('scope contains characters not allowed by RFC 6749 §3.3'));
  });

  it('refuses more than 100 scopes', () => {
    const scopes = Array.from({ length: 101 }, (_, index) => `s${index}`).join(' ');
    expect(() => parseScope(scopes)).toThrow(invalidScope('at most 100 scopes may be requested'));
  });

  it('accepts exactly 100 scopes', () => {
    expect(parseScope(Array.from({ length: 100 }, (_, index) => `s${index}`).join(' '))).toHaveLength(100);
  });

  it('accepts every printable ASCII character the grammar allows', () => {
    const token = "urn:x-api!#$%&'()*+,-./;<=>?@[]^_`{|}~";
    expect(parseScope(token)).toEqual([token]);
  });

  it('splits on spaces and drops duplicates, keeping the first position', () => {
    expect(parseScope('openid api1  openid profile api1')).toEqual(['openid', 'api1', 'profile']);
  });
});

describe('resolveRequestedScopes', () => {
  const known = new Set(['openid', 'profile', 'api1', 'api2', 'offline_access']);
  const isKnown = (scope: string) => known.has(scope);
  const allowed = ['openid', 'api1', 'offline_access', 'retired'];

  it('refuses an unknown scope, naming it', () => {
    expect(() => resolveRequestedScopes('openid nope', allowed, isKnown)).toThrow(invalidScope('unknown scope: nope'));
  });

  it('refuses known scopes the client is not allowed, naming them', () => {
    expect(() => resolveRequestedScopes('openid api2 profile', allowed, isKnown)).toThrow(invalidScope('scope not allowed for this client: api2 profile'));
  });

  it('refuses an empty scope parameter rather than defaulting it', () => {
    expect(() => resolveRequestedScopes('', allowed, isKnown)).toThrow(invalidScope('scope must not be empty'));
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

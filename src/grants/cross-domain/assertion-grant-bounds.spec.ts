import { OAuthError, type Client, type GrantContext } from '../../index';
import { assertionGrantResources } from './assertion-grant-resources';
import { assertionGrantScopes } from './assertion-grant-scope';

type ApiResource = GrantContext['resourceIndicators'][number];
const API1: ApiResource = { name: 'api1', scopes: ['api1'], uri: 'https://api1.example/' };
const NOTES: ApiResource = { name: 'notes', scopes: ['notes'], uri: 'https://notes.example/' };
const OTHER: ApiResource = { name: 'other', scopes: ['other'], uri: 'https://other.example/' };
const APIS = [API1, NOTES, OTHER];
const catalog = {
  isIdentityScope: (scope: string) => ['openid', 'profile', 'email'].includes(scope),
  audiencesFor: (scopes: readonly string[]) => APIS.filter((api) => api.scopes.some((scope) => scopes.includes(scope))).map((api) => api.name),
  apiResourceByUri: (uri: string) => APIS.find((api) => api.uri === uri),
};
const client = { clientId: 'agent', allowedScopes: ['openid', 'profile', 'api1', 'notes'] } as unknown as Client;

function refusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return error.code;
  }
}

describe('assertionGrantScopes', () => {
  const bounds = { identityScopes: ['openid', 'profile'] };
  it.each([
    [
      'default: identity scopes within the issuer list',
      { names: ['openid', 'profile', 'email', 'api1'], explicit: false },
      bounds,
      ['openid', 'profile', 'api1'],
    ],
    [
      'default: within the ID-JAG scope',
      { names: ['openid', 'api1', 'notes'], explicit: false },
      { ...bounds, assertionScopes: ['openid', 'notes'] },
      ['openid', 'notes'],
    ],
    [
      'default: API scopes of the resources only',
      { names: ['openid', 'api1', 'notes'], explicit: false },
      { ...bounds, audience: ['notes'] },
      ['openid', 'notes'],
    ],
    [
      'explicit, within every bound',
      { names: ['profile', 'notes'], explicit: true },
      { ...bounds, assertionScopes: ['profile', 'notes'], audience: ['notes'] },
      ['profile', 'notes'],
    ],
  ])('%s', (_name, requested, scopeBounds, granted) => {
    expect(assertionGrantScopes(requested, scopeBounds, catalog)).toEqual(granted);
  });

  it.each([
    ['an identity scope the issuer may not carry', { names: ['email'], explicit: true }, bounds],
    ['a scope outside the ID-JAG scope', { names: ['api1'], explicit: true }, { ...bounds, assertionScopes: ['notes'] }],
    ['an API scope of another resource', { names: ['api1'], explicit: true }, { ...bounds, audience: ['notes'] }],
    ['offline_access', { names: ['api1', 'offline_access'], explicit: true }, bounds],
    ['nothing left', { names: ['email'], explicit: false }, bounds],
  ])('refuses %s: invalid_scope', (_name, requested, scopeBounds) => {
    expect(refusal(() => assertionGrantScopes(requested, scopeBounds, catalog))).toBe('invalid_scope');
  });
});

describe('assertionGrantResources', () => {
  it.each([
    ['no bound, no request: the default audience', undefined, [], undefined],
    ['no bound: the request', undefined, [NOTES], [NOTES]],
    ["the ID-JAG's resources", ['https://api1.example/', 'https://notes.example/'], [], [API1, NOTES]],
    ['narrowed by the request', ['https://api1.example/', 'https://notes.example/'], [NOTES], [NOTES]],
  ])('%s', (_name, bound, requested, audience) => {
    expect(assertionGrantResources(bound, requested, client, catalog)).toEqual(audience);
  });

  it.each([
    ['a resource unknown here', ['https://unknown.example/'], []],
    ['a resource the client may not target', ['https://other.example/'], []],
    ["a requested resource outside the ID-JAG's", ['https://api1.example/'], [NOTES]],
  ])('refuses %s: invalid_target', (_name, bound, requested) => {
    expect(refusal(() => assertionGrantResources(bound, requested, client, catalog))).toBe('invalid_target');
  });

  it('refuses a resource closed to self-registered clients', () => {
    const selfRegistered = { ...client, selfRegistered: 'dynamic' } as unknown as Client;
    expect(refusal(() => assertionGrantResources(['https://api1.example/'], [], selfRegistered, catalog))).toBe('invalid_target');
  });
});

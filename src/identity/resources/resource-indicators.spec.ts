import { OAuthError } from '../../protocol/oauth-error';
import { ResourceCatalog } from './resource-catalog';
import {
  authorizedResourceUris,
  isResourceIndicator,
  narrowResources,
  readResourceIndicators,
  resolveResourceIndicators,
  scopesForResources,
} from './resource-indicators';

const NOTES = 'https://notes.example/mcp';
const API1 = 'https://api1.example/';
const catalog = new ResourceCatalog({
  identityResources: [
    { name: 'openid', claimTypes: ['sub'] },
    { name: 'profile', claimTypes: ['name'] },
  ],
  apiResources: [
    { name: 'notes', scopes: ['notes', 'notes.write'], uri: NOTES },
    { name: 'api1', scopes: ['api1'], uri: API1 },
    { name: 'api2', scopes: ['api2'] },
  ],
});
const [notes, api1] = catalog.resources.apiResources;
const refused = (code: string) => expect.objectContaining({ code });

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof OAuthError) return error.code;
  }
  return 'none';
}

describe('readResourceIndicators', () => {
  it('reads one, repeated or space-separated values without repetition', () => {
    expect(readResourceIndicators(undefined)).toEqual([]);
    expect(readResourceIndicators(NOTES)).toEqual([NOTES]);
    expect(readResourceIndicators([NOTES, API1, NOTES])).toEqual([NOTES, API1]);
    expect(readResourceIndicators(`${NOTES} ${API1}`)).toEqual([NOTES, API1]);
  });

  it('refuses more than 16 values or one over 2048 characters as invalid_request', () => {
    expect(() => readResourceIndicators(Array.from({ length: 17 }, (_, index) => `https://${index}.example/`))).toThrow(refused('invalid_request'));
    expect(() => readResourceIndicators(`https://a.example/${'x'.repeat(2048)}`)).toThrow(refused('invalid_request'));
  });
});

describe('isResourceIndicator', () => {
  it.each([NOTES, 'urn:example:api', 'http://127.0.0.1:5181/api1'])('takes the absolute URI %s', (uri) => expect(isResourceIndicator(uri)).toBe(true));
  it.each(['/api1', 'api1', 'https://notes.example/mcp#top', 'https://notes.example/#', '', '1http://x'])('refuses %p', (uri) => {
    expect(isResourceIndicator(uri)).toBe(false);
  });
});

describe('resolveResourceIndicators', () => {
  it('resolves known URIs the client may request a scope of', () => {
    expect(resolveResourceIndicators([NOTES, API1], catalog, { allowedScopes: ['notes', 'api1'] })).toEqual([notes, api1]);
    // One of the resource's scopes is enough.
    expect(resolveResourceIndicators([NOTES], catalog, { allowedScopes: ['notes.write'] })).toEqual([notes]);
  });

  it('refuses an unknown, relative or fragment URI, a resource name, and a resource none of whose scopes the client may request', () => {
    for (const uri of ['https://other.example/', 'api1', `${API1}#x`, '/api1', 'notes']) {
      expect(() => resolveResourceIndicators([uri], catalog, { allowedScopes: ['notes', 'api1'] })).toThrow(refused('invalid_target'));
    }
    expect(() => resolveResourceIndicators([NOTES, API1], catalog, { allowedScopes: ['notes'] })).toThrow(refused('invalid_target'));
  });

  it('refuses a self-registered client a resource not opened to such clients, even through a scope it shares with an open one', () => {
    const sharing = new ResourceCatalog({
      identityResources: [],
      apiResources: [
        { name: 'open', scopes: ['shared'], uri: 'https://open.example/', openToSelfRegistered: true },
        { name: 'closed', scopes: ['shared'], uri: 'https://closed.example/' },
      ],
    });
    const agent = { allowedScopes: ['shared'], selfRegistered: 'metadata_document' };
    expect(resolveResourceIndicators(['https://open.example/'], sharing, agent).map((api) => api.name)).toEqual(['open']);
    expect(() => resolveResourceIndicators(['https://closed.example/'], sharing, agent)).toThrow(refused('invalid_target'));
    expect(resolveResourceIndicators(['https://closed.example/'], sharing, { allowedScopes: ['shared'] }).map((api) => api.name)).toEqual(['closed']);
  });
});

describe('scopesForResources', () => {
  it('keeps the resources’ scopes, identity scopes and offline_access of an explicit scope', () => {
    const requested = { names: ['openid', 'profile', 'notes', 'offline_access'], explicit: true };
    expect(scopesForResources(requested, [notes], catalog)).toEqual(['openid', 'profile', 'notes', 'offline_access']);
  });

  it('refuses an explicit scope of another resource as invalid_scope', () => {
    expect(() => scopesForResources({ names: ['openid', 'api1'], explicit: true }, [notes], catalog)).toThrow(refused('invalid_scope'));
  });

  it('leaves another resource’s scopes out of a default scope', () => {
    expect(scopesForResources({ names: ['openid', 'api1', 'notes', 'api2'], explicit: false }, [notes], catalog)).toEqual(['openid', 'notes']);
  });

  it('is the scope as requested without resources', () => {
    expect(scopesForResources({ names: ['api1', 'api2'], explicit: true }, [], catalog)).toEqual(['api1', 'api2']);
  });
});

describe('narrowResources', () => {
  it('takes the same URIs again, or fewer', () => {
    expect(narrowResources([notes, api1], [NOTES, API1])).toEqual([NOTES, API1]);
    expect(narrowResources([notes], [NOTES, API1])).toEqual([NOTES]);
  });

  it('keeps what was authorized when no resource is sent', () => {
    expect(narrowResources([], [NOTES])).toEqual([NOTES]);
  });

  it('refuses a resource that was not authorized as invalid_target', () => {
    expect(() => narrowResources([api1], [NOTES])).toThrow(refused('invalid_target'));
    expect(() => narrowResources([notes], [])).toThrow(refused('invalid_target'));
  });
});

describe('authorizedResourceUris', () => {
  it('is what was stored, or without, the URIs of the resources of the scopes', () => {
    expect(authorizedResourceUris([NOTES], ['api1'], catalog)).toEqual([NOTES]);
    expect(authorizedResourceUris([], ['openid', 'api1', 'api2'], catalog)).toEqual([API1]);
  });
});

describe('precedence', () => {
  it('answers invalid_target before invalid_scope when both apply, resources being resolved first', () => {
    const both = () =>
      scopesForResources(
        { names: ['api2'], explicit: true },
        resolveResourceIndicators(['https://unknown.example/'], catalog, { allowedScopes: ['api2'] }),
        catalog,
      );
    expect(refusal(both)).toBe('invalid_target');
    const scopeOnly = () =>
      scopesForResources({ names: ['api2'], explicit: true }, resolveResourceIndicators([NOTES], catalog, { allowedScopes: ['notes', 'api2'] }), catalog);
    expect(refusal(scopeOnly)).toBe('invalid_scope');
  });
});

import { OAuthError } from '../../protocol/oauth-error';
import { OFFLINE_ACCESS, type RequestedScopes } from '../../protocol/scope';
import type { ApiResource } from './resource';
import type { ResourceCatalog } from './resource-catalog';

/** What resource indicators need of the catalog. */
export type ResourceLookup = Pick<ResourceCatalog, 'isKnownScope' | 'isIdentityScope' | 'apiResourceByUri'>;

/** At most this many `resource` values in one request, each at most this long. */
export const MAX_RESOURCE_INDICATORS = 16;
export const MAX_RESOURCE_INDICATOR_LENGTH = 2048;

/**
 * The RFC 8707 `resource` values as sent: once, repeated, or (carried through the sign-in pages and
 * pushed requests) space-separated in one value; a URI has no spaces. Too many or too long is
 * `invalid_request`.
 */
export function readResourceIndicators(value: unknown): string[] {
  if (value === undefined) return [];
  const values = (Array.isArray(value) ? value : [value]) as unknown[];
  if (values.length > MAX_RESOURCE_INDICATORS) throw OAuthError.invalidRequest(`at most ${MAX_RESOURCE_INDICATORS} resource values may be sent`);
  const uris: string[] = [];
  for (const entry of values) {
    if (typeof entry !== 'string' || entry.length > MAX_RESOURCE_INDICATOR_LENGTH) throw OAuthError.invalidRequest('parameter resource is too long');
    for (const uri of entry.split(' ')) if (uri !== '' && !uris.includes(uri)) uris.push(uri);
  }
  if (uris.length > MAX_RESOURCE_INDICATORS) throw OAuthError.invalidRequest(`at most ${MAX_RESOURCE_INDICATORS} resource values may be sent`);
  return uris;
}

/** RFC 8707 §2: an absolute URI without a fragment. */
export function isResourceIndicator(value: string): boolean {
  if (value.includes('#') || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  return URL.canParse(value);
}

/** The client a token is for, as the resources it may name see it (a structural `Client`). */
export interface ResourceRequester {
  readonly allowedScopes: readonly string[];
  /** How the client registered itself; absent for the operator's clients. */
  readonly selfRegistered?: string;
}

/**
 * Whether the client may obtain a token naming this API resource: it may request one of its scopes,
 * and a client that registered itself only a resource opened to such clients — decided per resource,
 * never through a scope the resource shares with an open one (docs/agents.md).
 */
export function mayTarget(api: ApiResource, client: ResourceRequester): boolean {
  if (client.selfRegistered !== undefined && api.openToSelfRegistered !== true) return false;
  return api.scopes.some((scope) => client.allowedScopes.includes(scope));
}

/**
 * RFC 8707 §2: each requested URI is well formed and the resource URI of a known API resource that
 * the client may target (`mayTarget`); otherwise `invalid_target`. Checked before the scope, so that
 * when both are wrong `invalid_target` wins (docs/tokens.md#resource-indicators).
 */
export function resolveResourceIndicators(uris: readonly string[], catalog: ResourceLookup, client: ResourceRequester): ApiResource[] {
  return uris.map((uri) => {
    const shown = uri.slice(0, 200);
    if (!isResourceIndicator(uri)) throw OAuthError.invalidTarget(`resource ${shown} is not an absolute URI without a fragment`);
    const api = catalog.apiResourceByUri(uri);
    if (!api) throw OAuthError.invalidTarget(`resource ${shown} is unknown`);
    if (!mayTarget(api, client)) throw OAuthError.invalidTarget(`the client may not obtain a token for resource ${shown}`);
    return api;
  });
}

/**
 * The scopes a token for these resources may carry: theirs, identity scopes and `offline_access`. A
 * scope the client named outside them is `invalid_scope`; an omitted scope's default leaves it out.
 * Without resources, the scopes as requested.
 */
export function scopesForResources(requested: RequestedScopes, targets: readonly ApiResource[], catalog: ResourceLookup): string[] {
  if (targets.length === 0) return [...requested.names];
  const outside = requested.names.filter((scope) => !carriesFor(scope, targets, catalog));
  if (requested.explicit && outside.length > 0) throw OAuthError.invalidScope(`scope ${outside.join(' ')} is not for the requested resource`);
  return requested.names.filter((scope) => !outside.includes(scope));
}

/**
 * RFC 8707 §2.2: at the token endpoint `resource` may only narrow what was authorized (the same URIs
 * again are fine); omitted, the token is for everything authorized. A URI not authorized is
 * `invalid_target`.
 */
export function narrowResources(requested: readonly ApiResource[], authorized: readonly string[]): string[] {
  const notAuthorized = requested.find((api) => !authorized.includes(api.uri ?? ''));
  if (notAuthorized) throw OAuthError.invalidTarget(`resource ${(notAuthorized.uri ?? '').slice(0, 200)} was not authorized`);
  return requested.length === 0 ? [...authorized] : requested.map((api) => api.uri ?? '');
}

/**
 * The resource URIs an earlier grant authorized: those stored with it, or for a grant made without
 * `resource`, those of the API resources its scopes are for (its tokens' audience).
 */
export function authorizedResourceUris(
  resources: readonly string[],
  scopes: readonly string[],
  catalog: Pick<ResourceCatalog, 'resources'>,
): readonly string[] {
  if (resources.length > 0) return resources;
  return catalog.resources.apiResources.flatMap((api) => (api.uri !== undefined && api.scopes.some((scope) => scopes.includes(scope)) ? [api.uri] : []));
}

function carriesFor(scope: string, targets: readonly ApiResource[], catalog: ResourceLookup): boolean {
  return scope === OFFLINE_ACCESS || catalog.isIdentityScope(scope) || targets.some((api) => api.scopes.includes(scope));
}

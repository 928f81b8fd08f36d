import { OAuthError, type Client, type GrantContext } from '../../index';

type ApiResource = GrantContext['resourceIndicators'][number];

/**
 * The API resources a redeemed ID-JAG's token is addressed to: its `resource` URIs, each known here
 * and open to the client (else `invalid_target`), narrowed by the request's RFC 8707 `resource`
 * (`requestedResources`; one outside the ID-JAG's is `invalid_target`). Without a
 * `resource` in the assertion, the request's own; none at all is undefined (the default audience).
 */
export function assertionGrantResources(
  assertionResources: readonly string[] | undefined,
  requested: readonly ApiResource[],
  client: Client,
  catalog: Pick<GrantContext['resources'], 'apiResourceByUri'>,
): readonly ApiResource[] | undefined {
  if (assertionResources === undefined) return requested.length > 0 ? requested : undefined;
  const bound = assertionResources.map((uri) => {
    const api = catalog.apiResourceByUri(uri);
    const shown = uri.slice(0, 200);
    if (!api) throw OAuthError.invalidTarget(`the ID-JAG's resource ${shown} is unknown here`);
    if (!isOpenTo(api, client)) throw OAuthError.invalidTarget(`the client may not obtain a token for the ID-JAG's resource ${shown}`);
    return api;
  });
  if (requested.length === 0) return bound;
  const outside = requested.find((api) => !assertionResources.includes(api.uri ?? ''));
  if (outside) throw OAuthError.invalidTarget(`resource ${(outside.uri ?? outside.name).slice(0, 200)} is outside the ID-JAG's resource`);
  return requested;
}

/** RFC 8707 §2 `resource` values: each the URI of an API resource known here and open to the client, else `invalid_target`. */
export function requestedResources(uris: readonly string[], client: Client, catalog: Pick<GrantContext['resources'], 'apiResourceByUri'>): ApiResource[] {
  return [...new Set(uris)].map((uri) => {
    const api = catalog.apiResourceByUri(uri);
    if (!api || !isOpenTo(api, client)) throw OAuthError.invalidTarget(`the client may not obtain a token for resource ${uri.slice(0, 200)}`);
    return api;
  });
}

/** As for RFC 8707 `resource` everywhere: the client may request one of its scopes, and a self-registered client only an API open to such clients. */
function isOpenTo(api: ApiResource, client: Client): boolean {
  if (client.selfRegistered !== undefined && api.openToSelfRegistered !== true) return false;
  return api.scopes.some((scope) => client.allowedScopes.includes(scope));
}

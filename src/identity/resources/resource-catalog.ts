import { OFFLINE_ACCESS } from '../../protocol/scope';
import type { ApiResource, IdentityResource, Resources } from './resource';

/** An immutable, indexed view of the enabled identity and API resources. */
export class ResourceCatalog {
  private readonly identity = new Map<string, IdentityResource>();
  private readonly audiencesByScope = new Map<string, string[]>();
  /** API resources by name and by RFC 8707 resource URI. */
  private readonly apis = new Map<string, ApiResource>();
  private readonly apisByUri = new Map<string, ApiResource>();
  /** The names and URIs of the resources each client serves. */
  private readonly servedAudiences = new Map<string, Set<string>>();

  constructor(readonly resources: Resources) {
    for (const resource of resources.identityResources) this.identity.set(resource.name, resource);
    for (const api of resources.apiResources) {
      this.apis.set(api.name, api);
      if (api.uri !== undefined) this.apisByUri.set(api.uri, api);
      for (const scope of api.scopes) this.audiencesByScope.set(scope, [...(this.audiencesByScope.get(scope) ?? []), api.name]);
      if (api.servingClientId === undefined) continue;
      const served = this.servedAudiences.get(api.servingClientId) ?? new Set<string>();
      served.add(api.name);
      if (api.uri !== undefined) served.add(api.uri);
      this.servedAudiences.set(api.servingClientId, served);
    }
  }

  /**
   * A token is addressed to a client when its `aud` contains the client's client_id, or the name or
   * URI of a resource that client serves (docs/tokens.md#addressed-to-a-client): the rule of the
   * delegation grant, token exchange and introspection.
   */
  isAddressedTo(audiences: readonly string[], clientId: string): boolean {
    const served = this.servedAudiences.get(clientId);
    return audiences.some((audience) => audience === clientId || served?.has(audience) === true);
  }

  /** The API resource whose RFC 8707 resource URI this is, exactly. */
  apiResourceByUri(uri: string): ApiResource | undefined {
    return this.apisByUri.get(uri);
  }

  /** The API resource named so, or whose resource URI this is (RFC 8693 `audience` / `resource`). */
  apiResource(nameOrUri: string): ApiResource | undefined {
    return this.apis.get(nameOrUri) ?? this.apisByUri.get(nameOrUri);
  }

  isKnownScope(scope: string): boolean {
    return scope === OFFLINE_ACCESS || this.identity.has(scope) || this.audiencesByScope.has(scope);
  }

  isIdentityScope(scope: string): boolean {
    return this.identity.has(scope);
  }

  identityResource(scope: string): IdentityResource | undefined {
    return this.identity.get(scope);
  }

  /**
   * The names of the API resources that the scopes belong to, without repetition. For a client that
   * registered itself (`selfRegistered`), only those opened to such clients: a scope shared with a
   * closed resource never names it (docs/agents.md).
   */
  audiencesFor(scopes: readonly string[], selfRegistered = false): string[] {
    const audiences: string[] = [];
    for (const scope of scopes) {
      for (const audience of this.audiencesByScope.get(scope) ?? []) {
        if (audiences.includes(audience) || (selfRegistered && this.apis.get(audience)?.openToSelfRegistered !== true)) continue;
        audiences.push(audience);
      }
    }
    return audiences;
  }

  scopesSupported(): string[] {
    return [...this.identity.keys(), ...this.audiencesByScope.keys(), OFFLINE_ACCESS];
  }

  claimsSupported(): string[] {
    return [...new Set(this.resources.identityResources.flatMap((resource) => resource.claimTypes))];
  }
}

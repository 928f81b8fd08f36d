import { OFFLINE_ACCESS } from '../oauth/scope';
import type { IdentityResource, Resources } from './resource';

/** An immutable, indexed view of the enabled identity and API resources. */
export class ResourceCatalog {
  private readonly identity = new Map<string, IdentityResource>();
  private readonly audiencesByScope = new Map<string, string[]>();

  constructor(readonly resources: Resources) {
    for (const resource of resources.identityResources) this.identity.set(resource.name, resource);
    for (const api of resources.apiResources) {
      for (const scope of api.scopes) this.audiencesByScope.set(scope, [...(this.audiencesByScope.get(scope) ?? []), api.name]);
    }
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

  /** The names of the API resources that the scopes belong to, without repetition. */
  audiencesFor(scopes: readonly string[]): string[] {
    const audiences: string[] = [];
    for (const scope of scopes) {
      for (const audience of this.audiencesByScope.get(scope) ?? []) if (!audiences.includes(audience)) audiences.push(audience);
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

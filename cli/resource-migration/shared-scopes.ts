import type { ResourceView } from '../inventory/inventory';

/** An API resource as a migration leaves it. */
export interface ResourceOutcome {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly openToSelfRegistered: boolean;
}

/**
 * Warnings for an API resource that shares scopes with other enabled ones: a token with a shared
 * scope names every resource that has it in `aud`, and a self-registered client gets only the ones
 * opened to such clients (docs/agents.md) — often not what the operator meant.
 */
export function sharedScopeWarnings(resource: ResourceOutcome, others: readonly ResourceView[]): string[] {
  return others.flatMap((other) => {
    if (other.kind !== 'api' || !other.enabled || other.name === resource.name) return [];
    const shared = resource.scopes.filter((scope) => other.scopes.includes(scope));
    if (shared.length === 0) return [];
    const [scopes, pronoun] = shared.length === 1 ? ['the scope', 'it'] : ['the scopes', 'them'];
    return [
      `warning: API resource "${resource.name}" shares ${scopes} ${shared.join(' ')} with API resource "${other.name}": a token with ${pronoun} names both in aud. ` +
        selfRegisteredGet(resource, other),
    ];
  });
}

function selfRegisteredGet(resource: ResourceOutcome, other: ResourceView): string {
  const opened = [resource, other].filter((api) => api.openToSelfRegistered).map((api) => `"${api.name}"`);
  if (opened.length === 0) return 'Clients that registered themselves get neither.';
  if (opened.length === 2) return 'Clients that registered themselves get both (both opened to them).';
  return `Clients that registered themselves get only ${opened[0]} (opened to them), whichever resource the scope was meant for.`;
}

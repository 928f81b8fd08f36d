import type { Client, ClientSecret } from '../client';
import type { JwkSetSource } from '../../../protocol/jwk-set-source';
import { OFFLINE_ACCESS } from '../../../protocol/scope';
import type { ResourceCatalog } from '../../resources/resource-catalog';
import { allLoopback, type ClientMetadata } from './client-metadata';

/** What a client that registered itself may do at most (docs/agents.md#what-a-self-registered-client-may-do). */
export const SELF_REGISTERED_GRANT_TYPES: readonly string[] = ['authorization_code', 'refresh_token'];

const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 86_400;

/** Identity scopes, `offline_access`, and the scopes of the API resources opened to self-registered clients. */
export function selfRegisteredScopes(catalog: ResourceCatalog): string[] {
  const { identityResources, apiResources } = catalog.resources;
  const opened = apiResources.filter((api) => api.openToSelfRegistered === true).flatMap((api) => api.scopes);
  return [...new Set([...identityResources.map((resource) => resource.name), OFFLINE_ACCESS, ...opened])];
}

export interface SelfRegisteredClientInput {
  readonly clientId: string;
  readonly metadata: ClientMetadata;
  readonly kind: NonNullable<Client['selfRegistered']>;
  /** The metadata document URL's host (with its port), shown beside the client's name. */
  readonly host?: string;
  readonly secrets?: readonly ClientSecret[];
  /** private_key_jwt keys; a document's `jwks_uri` is fetched by the resolver and given inline. */
  readonly assertionKeys?: JwkSetSource;
}

/**
 * The domain client of a self-registered client: the grants and scopes the rules allow, narrowed
 * (never widened) by its `grant_types` and `scope`; consent always asked, and asked every time when
 * all its redirect URIs are loopback ones.
 */
export function selfRegisteredClient(input: SelfRegisteredClientInput, catalog: ResourceCatalog): Client {
  const { metadata } = input;
  const grantTypes = SELF_REGISTERED_GRANT_TYPES.filter((grant) => metadata.grantTypes?.includes(grant) ?? true);
  const scopes = selfRegisteredScopes(catalog).filter((scope) => metadata.scope?.includes(scope) ?? true);
  return {
    clientId: input.clientId,
    ...(metadata.clientName === undefined ? {} : { clientName: metadata.clientName }),
    enabled: true,
    allowedGrantTypes: grantTypes,
    allowedScopes: scopes,
    accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
    refreshTokenLifetimeSeconds: REFRESH_TOKEN_LIFETIME_SECONDS,
    secrets: input.secrets ?? [],
    public: metadata.tokenEndpointAuthMethod === 'none',
    ...(input.assertionKeys === undefined ? {} : { assertionKeys: input.assertionKeys }),
    redirectUris: metadata.redirectUris,
    postLogoutRedirectUris: metadata.postLogoutRedirectUris,
    requireConsent: true,
    consentEveryTime: input.kind === 'metadata_document' && allLoopback(metadata.redirectUris),
    selfRegistered: input.kind,
    ...(input.host === undefined ? {} : { clientHost: input.host }),
  };
}

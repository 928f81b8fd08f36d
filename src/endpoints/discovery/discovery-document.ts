import { ACR_VALUES_SUPPORTED } from '../../protocol/authentication-context';
import { DPOP_SIGNING_ALGORITHMS } from '../../tokens/dpop/dpop-proof';
import type { ResourceCatalog } from '../../identity/resources/resource-catalog';
import { FOREIGN_JWT_ALGORITHMS } from '../../identity/trusted-issuers/foreign-jwt.verifier';

export interface DiscoveryInput {
  readonly issuer: string;
  readonly grantTypes: readonly string[];
  readonly catalog: ResourceCatalog;
  readonly signingAlgorithms: readonly string[];
  /** docs/agents.md: whether URL client_ids name metadata documents, and whether clients may register. */
  readonly metadataDocuments: boolean;
  readonly dynamicRegistration: boolean;
  /** The `requested_token_type`s token exchange issues (every registered handler's). */
  readonly exchangeTokenTypes?: readonly string[];
}

// docs/client-authentication.md: every endpoint that authenticates clients does it the same way.
// Workload identities (Kubernetes, SPIFFE) are assertions of their own types, not registered method names.
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'];
const ASSERTION_ALGORITHMS = [...FOREIGN_JWT_ALGORITHMS];
// Public clients (`none`) use the token and revocation endpoints but may not introspect.
const PUBLIC_CLIENT_AUTH_METHODS = [...CLIENT_AUTH_METHODS, 'none'];
// Claims of ID tokens (OpenID Connect Core §2) besides those the identity resources map to.
const ID_TOKEN_CLAIMS = ['auth_time', 'amr', 'acr', 'sid', 'nonce', 'azp', 'at_hash'];
// docs/chaining.md: JWT authorization grants across trust domains, received and issued.
const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';
const IDENTITY_CHAINING_TOKEN_TYPES = ['urn:ietf:params:oauth:token-type:id-jag', 'urn:ietf:params:oauth:token-type:jwt'];

/**
 * RFC 8414 §3.1: for an issuer with a path (`https://host/auth`), the metadata URL puts the
 * well-known segment between the host and that path: `/.well-known/oauth-authorization-server/auth`.
 * Undefined for an issuer without a path, whose metadata is at the plain well-known URL.
 */
export function rfc8414MetadataPath(issuer: string): string | undefined {
  const { pathname } = new URL(issuer);
  return pathname === '/' || pathname === '' ? undefined : `/.well-known/oauth-authorization-server${pathname}`;
}

/** OpenID Connect Discovery 1.0 §3 / RFC 8414 §2 metadata (docs/endpoints.md#discovery). */
export function discoveryDocument({
  issuer,
  grantTypes,
  catalog,
  signingAlgorithms,
  metadataDocuments,
  dynamicRegistration,
  exchangeTokenTypes = [],
}: DiscoveryInput): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/openid-configuration/jwks`,
    authorization_endpoint: `${issuer}/connect/authorize`,
    token_endpoint: `${issuer}/connect/token`,
    userinfo_endpoint: `${issuer}/connect/userinfo`,
    end_session_endpoint: `${issuer}/connect/endsession`,
    introspection_endpoint: `${issuer}/connect/introspect`,
    revocation_endpoint: `${issuer}/connect/revocation`,
    pushed_authorization_request_endpoint: `${issuer}/connect/par`,
    device_authorization_endpoint: `${issuer}/connect/deviceauthorization`,
    // RFC 7591 §3, only while registration is on.
    ...(dynamicRegistration ? { registration_endpoint: `${issuer}/connect/register` } : {}),
    grant_types_supported: grantTypes,
    scopes_supported: catalog.scopesSupported(),
    claims_supported: ['sub', ...catalog.claimsSupported().filter((claim) => claim !== 'sub'), ...ID_TOKEN_CLAIMS],
    // docs/browser-sign-in.md: the authorization code flow with PKCE S256, nothing else.
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'form_post'],
    code_challenge_methods_supported: ['S256'],
    prompt_values_supported: ['none', 'login', 'consent'],
    // docs/passkeys.md: password (`pwd`) and passkey (`phr`) sign-ins; `acr_values` and an `acr` claim ask for one (RFC 9470).
    acr_values_supported: ACR_VALUES_SUPPORTED,
    claims_parameter_supported: true,
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    // RFC 9126 §5: only pushed request_uri values are accepted; no client must push unless registered so.
    request_uri_parameter_supported: false,
    require_pushed_authorization_requests: false,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: signingAlgorithms,
    token_endpoint_auth_methods_supported: PUBLIC_CLIENT_AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: PUBLIC_CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    // OpenID Connect Back-Channel Logout 1.0 §2.1: logout tokens carry `sid` (docs/signals.md).
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // RFC 9449 §5.1 (docs/dpop.md).
    dpop_signing_alg_values_supported: DPOP_SIGNING_ALGORITHMS,
    // draft-ietf-oauth-client-id-metadata-document §6.
    ...(metadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    ...crossDomainMetadata(grantTypes, exchangeTokenTypes),
  };
}

/**
 * draft-ietf-oauth-identity-assertion-authz-grant and draft-ietf-oauth-identity-chaining: the ID-JAG
 * profile while the jwt-bearer grant is served, and the grant types token exchange issues for other
 * domains' authorization servers, as far as handlers for them are registered.
 */
function crossDomainMetadata(grantTypes: readonly string[], exchangeTokenTypes: readonly string[]): Record<string, string[]> {
  const chaining = IDENTITY_CHAINING_TOKEN_TYPES.filter((type) => exchangeTokenTypes.includes(type));
  return {
    ...(grantTypes.includes(JWT_BEARER_GRANT_TYPE) ? { authorization_grant_profiles_supported: [ID_JAG_PROFILE] } : {}),
    ...(chaining.length > 0 ? { identity_chaining_requested_token_types_supported: chaining } : {}),
  };
}

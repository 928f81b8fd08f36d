/**
 * What the operator's read-only commands show (docs/operations.md#seeing-what-exists): every setting
 * an operator can change, and never a secret, a hash or a private key. Secrets appear by id, description
 * and expiry; JWK Sets by their keys' ids and types.
 */
export interface ClientView {
  readonly clientId: string;
  readonly clientName: string | null;
  readonly enabled: boolean;
  /** How it authenticates: secrets, private_key_jwt, a workload identity, or none (public). */
  readonly authentication: 'client_secret' | 'private_key_jwt' | 'workload' | 'none';
  readonly grantTypes: readonly string[];
  readonly scopes: readonly string[];
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  readonly requireConsent: boolean;
  /** RFC 9126 §6: its authorization requests must be pushed first (`--require-par`). */
  readonly requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 §5: its token requests must carry a DPoP proof (`--require-dpop`). */
  readonly requireDpop: boolean;
  /** docs/passkeys.md: sign-ins for this client must use a passkey (`phr`). */
  readonly requirePhr: boolean;
  readonly accessTokenLifetimeSeconds: number;
  readonly refreshTokenLifetimeSeconds: number;
  readonly mayActClientId: string | null;
  readonly transactionTokens: boolean;
  readonly jwksUri: string | null;
  readonly jwks: readonly KeySummary[] | null;
  readonly workloadIdentities: readonly { readonly issuer: string; readonly subject: string }[];
  /** OpenID Connect Back-Channel Logout 1.0 (docs/signals.md). */
  readonly backchannelLogoutUri: string | null;
  readonly backchannelLogoutSessionRequired: boolean;
  readonly secrets: readonly SecretSummary[];
  readonly createdAt: string;
}

export interface SecretSummary {
  readonly id: string;
  readonly description: string | null;
  readonly expiresAt: string | null;
  readonly createdAt: string;
}

/** A public key as listed: never its key material. */
export interface KeySummary {
  readonly kid: string | null;
  readonly kty: string | null;
  readonly alg: string | null;
}

export interface ResourceView {
  readonly name: string;
  readonly kind: 'api' | 'identity';
  readonly enabled: boolean;
  /** An API resource's scopes; an identity resource is its own scope. */
  readonly scopes: readonly string[];
  /** An API resource's RFC 8707 resource URI. */
  readonly uri: string | null;
  /** The client serving an API resource: tokens addressed to the resource are addressed to it. */
  readonly servedBy: string | null;
  /** An API resource clients that registered themselves may request (docs/agents.md). */
  readonly openToSelfRegistered: boolean;
  /** An identity resource's claims. */
  readonly claims: readonly string[];
}

export interface TrustedIssuerView {
  readonly issuer: string;
  /** `partner`: a partner authorization server that grants are issued for, not an issuer Tollgate trusts (docs/chaining.md). */
  readonly role: 'workload' | 'subject' | 'authorization-grant' | 'partner';
  readonly kind: string;
  readonly enabled: boolean;
  readonly description: string | null;
  readonly jwksUri: string | null;
  readonly jwks: readonly KeySummary[] | null;
  readonly subjectAudience: string | null;
  readonly subjectUserClaim: string | null;
  readonly subjectIdentityScopes: readonly string[];
  readonly trustedBy: readonly string[];
  readonly authorizationGrant?: { readonly userClaim: string; readonly identityScopes: readonly string[]; readonly maxLifetimeSeconds: number };
  readonly partner?: { readonly resources: readonly string[]; readonly clientIds: Readonly<Record<string, string>> };
  readonly createdAt: string;
}

export interface UserView {
  readonly subjectId: string;
  readonly username: string;
  readonly enabled: boolean;
  readonly roles: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
  /** How many passkeys the user has registered (docs/passkeys.md); never their keys. */
  readonly passkeys: number;
  readonly updatedAt: string;
}

/** Reads what exists, from the database the service uses. */
export abstract class Inventory {
  abstract clients(): Promise<ClientView[]>;
  abstract client(clientId: string): Promise<ClientView | undefined>;
  abstract resources(): Promise<ResourceView[]>;
  abstract resource(name: string): Promise<ResourceView | undefined>;
  abstract trustedIssuers(): Promise<TrustedIssuerView[]>;
  abstract trustedIssuer(issuer: string): Promise<TrustedIssuerView | undefined>;
  abstract users(): Promise<UserView[]>;
  /** By username or subject id. */
  abstract user(name: string): Promise<UserView | undefined>;
}

/** Only what a key may show: which key, not its material (a private member would never be printed). */
export function keySummaries(jwks: unknown): KeySummary[] | null {
  if (jwks === null || jwks === undefined) return null;
  const keys = (jwks as { keys?: unknown }).keys;
  return (Array.isArray(keys) ? keys : []).map((key: Record<string, unknown>) => ({
    kid: typeof key?.kid === 'string' ? key.kid : null,
    kty: typeof key?.kty === 'string' ? key.kty : null,
    alg: typeof key?.alg === 'string' ? key.alg : null,
  }));
}

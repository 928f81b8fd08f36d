import type { JwkSetSource } from '../../protocol/jwk-set-source';

export interface ClientSecret {
  /** SHA-256 of the secret, decoded from its stored base64 form. */
  readonly hash: Uint8Array;
  readonly expiresAt?: Date;
}

/** A registered client, as the protocol sees it (read-only; persistence maps to it). */
export interface Client {
  readonly clientId: string;
  /** What users see on the consent page; the client id when absent. */
  readonly clientName?: string;
  readonly enabled: boolean;
  readonly allowedGrantTypes: readonly string[];
  readonly allowedScopes: readonly string[];
  readonly accessTokenLifetimeSeconds: number;
  readonly refreshTokenLifetimeSeconds: number;
  readonly secrets: readonly ClientSecret[];
  /** RFC 8693 §4.4: the user tokens issued to this client name this client as the only one that may act for the user. */
  readonly mayActClientId?: string;
  /** Whether the client may obtain transaction tokens (docs/transaction-tokens.md). */
  readonly transactionTokens?: boolean;
  /** The keys its private_key_jwt assertions are signed with (RFC 7523 §2.2), inline or by `jwks_uri`. */
  readonly assertionKeys?: JwkSetSource;
  /** Workload identities it may authenticate with (docs/workload-identity.md). */
  readonly workloadIdentities?: readonly WorkloadIdentity[];
  /** A public client (browser or native app, `none`): identified by client_id alone, without a credential. */
  readonly public?: boolean;
  /** Exact redirect URIs of the authorization code flow (RFC 9700 §4.1.1: no patterns). */
  readonly redirectUris: readonly string[];
  /** OpenID Connect RP-Initiated Logout 1.0 §3: where a logout may return. */
  readonly postLogoutRedirectUris: readonly string[];
  /** Third-party clients ask the user before receiving anything (docs/browser-sign-in.md). */
  readonly requireConsent: boolean;
  /** RFC 9126 §6: its authorization requests must be pushed (docs/browser-sign-in.md#pushed-authorization-requests--post-connectpar). */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 §5: its token requests must carry a DPoP proof (docs/dpop.md). */
  readonly requireDpop?: boolean;
  /** Every sign-in for it must be phishing-resistant, `acr` `phr` (docs/passkeys.md#step-up). */
  readonly requirePhr?: boolean;
  /** How the client registered itself (docs/agents.md); absent for the operator's clients. */
  readonly selfRegistered?: 'metadata_document' | 'dynamic';
  /** A metadata document's host (with its port), shown beside `clientName` so no document passes for another application. */
  readonly clientHost?: string;
  /** Consent asked on every request, never remembered (docs/agents.md#what-a-self-registered-client-may-do). */
  readonly consentEveryTime?: boolean;
}

/** A Kubernetes service account or SPIFFE ID (`subject`) of a trusted workload issuer. */
export interface WorkloadIdentity {
  /** The trusted issuer: the cluster's issuer URL, or `spiffe://<trust domain>`. */
  readonly issuer: string;
  readonly subject: string;
}

/** How a client authenticated, as audit events and metrics name it. */
export type ClientAuthMethodName = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'kubernetes_service_account' | 'spiffe_jwt_svid' | 'none';

/** A client that proved its identity on this request, and how. */
export interface AuthenticatedClient {
  readonly client: Client;
  readonly method: ClientAuthMethodName;
}

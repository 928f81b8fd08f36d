export interface ClientSecret {
  /** SHA-256 of the secret, decoded from its stored base64 form. */
  readonly hash: Uint8Array;
  readonly expiresAt?: Date;
}

/** A registered client, as the protocol sees it (read-only; persistence maps to it). */
export interface Client {
  readonly clientId: string;
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
}

/** A client that proved its identity on this request, and how. */
export interface AuthenticatedClient {
  readonly client: Client;
  readonly method: 'client_secret_basic' | 'client_secret_post';
}

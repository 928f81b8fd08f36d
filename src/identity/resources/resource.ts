/** A scope that names a set of user claims (OIDC Core §5.4). */
export interface IdentityResource {
  readonly name: string;
  readonly claimTypes: readonly string[];
}

/** An API that access tokens are issued for; its name is the `aud` of tokens carrying its scopes. */
export interface ApiResource {
  readonly name: string;
  readonly scopes: readonly string[];
  /** RFC 8707 resource URI: absolute, no fragment. */
  readonly uri?: string;
  /** The client that serves this API: tokens addressed to the resource are addressed to it (docs/tokens.md#addressed-to-a-client). */
  readonly servingClientId?: string;
  /** Clients that registered themselves may request its scopes (docs/agents.md). */
  readonly openToSelfRegistered?: boolean;
}

export interface Resources {
  readonly identityResources: readonly IdentityResource[];
  readonly apiResources: readonly ApiResource[];
}

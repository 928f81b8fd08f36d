/** A scope that names a set of user claims (OIDC Core §5.4). */
export interface IdentityResource {
  readonly name: string;
  readonly claimTypes: readonly string[];
}

/** An API that access tokens are issued for; its name is the `aud` of tokens carrying its scopes. */
export interface ApiResource {
  readonly name: string;
  readonly scopes: readonly string[];
}

export interface Resources {
  readonly identityResources: readonly IdentityResource[];
  readonly apiResources: readonly ApiResource[];
}

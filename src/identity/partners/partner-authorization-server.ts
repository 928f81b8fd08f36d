/**
 * An authorization server of another trust domain that Tollgate issues JWT authorization grants for
 * (ID-JAGs and identity-chaining grants, docs/chaining.md#partner-authorization-servers).
 */
export interface PartnerAuthorizationServer {
  /** Its issuer identifier: the sole `aud` of the grants issued for it. */
  readonly issuer: string;
  /** The RFC 8707 resource URIs it serves, which a grant's `resource` may name. */
  readonly resources: readonly string[];
  /** For each of our clients that may ask for grants addressed to it: that client's `client_id` there. */
  readonly clientIds: Readonly<Record<string, string>>;
}

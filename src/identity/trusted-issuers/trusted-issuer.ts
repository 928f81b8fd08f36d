import type { JwkSetSource } from '../../protocol/jwk-set-source';

/** What an issuer is trusted for (docs/trusted-issuers.md). */
export type TrustedIssuerRole = 'workload' | 'subject' | 'authorization-grant';

/** How its tokens look: Kubernetes service-account tokens, SPIFFE JWT-SVIDs, or plain JWTs. */
export type TrustedIssuerKind = 'kubernetes' | 'spiffe' | 'jwt';

/** A registered issuer, as the protocol sees it. */
export interface TrustedIssuer {
  /** The `iss` its tokens carry; for SPIFFE, the trust domain as `spiffe://<trust domain>`. */
  readonly issuer: string;
  readonly role: TrustedIssuerRole;
  readonly kind: TrustedIssuerKind;
  readonly keys: JwkSetSource;
  readonly enabled: boolean;
  /** For subject issuers: what their tokens must say to be exchanged, and who trusts them. */
  readonly subject?: SubjectIssuerPolicy;
  /** For authorization-grant issuers: how their RFC 7523 assertions are redeemed (docs/chaining.md). */
  readonly authorizationGrant?: AuthorizationGrantIssuerPolicy;
}

/** docs/chaining.md#authorization-grant-issuers */
export interface AuthorizationGrantIssuerPolicy {
  /** The claim of an assertion that names the local user: `sub` (the user's `sub` here) or one compared with the users' claim of that name. */
  readonly userClaim: string;
  /** The identity scopes a redeemed assertion's token may carry. */
  readonly identityScopes: readonly string[];
  /** The longest `exp − iat` accepted, in seconds. */
  readonly maxLifetimeSeconds: number;
  /** The clients that may present its assertions. */
  readonly trustedBy: readonly string[];
}

/** docs/delegation.md#tokens-from-your-identity-provider */
export interface SubjectIssuerPolicy {
  /** The `aud` of its tokens must contain this. */
  readonly audience: string;
  /** The claim compared with the local users' claim of the same name (e.g. `email`). */
  readonly userClaim: string;
  /** The identity scopes an exchanged token may carry. */
  readonly identityScopes: readonly string[];
  /** The clients that accept its tokens in token exchange. */
  readonly trustedBy: readonly string[];
}

/** SPIFFE ID of a trust domain (SPIFFE-ID §2): `spiffe://` and a lowercase name, no path. */
export const SPIFFE_TRUST_DOMAIN = /^spiffe:\/\/[a-z0-9._-]{1,255}$/;

/** The trust domain (`spiffe://example.org`) of a SPIFFE ID such as `spiffe://example.org/ns/a/sa/b`, or undefined. */
export function spiffeTrustDomainOf(spiffeId: string): string | undefined {
  const match = /^(spiffe:\/\/[a-z0-9._-]{1,255})(\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?$/.exec(spiffeId);
  if (!match || !match[2] || match[2] === '/' || match[2].endsWith('/') || match[2].includes('//')) return undefined;
  return match[1];
}

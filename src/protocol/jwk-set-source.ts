import type { JSONWebKeySet } from 'jose';

/**
 * Where a party's verification keys come from: a JWK Set stored with it, or fetched from its
 * `jwks_uri` (client metadata `jwks` / `jwks_uri`, RFC 7591 §2; issuer metadata, RFC 8414 §2).
 * For SPIFFE, the URI is the trust domain's bundle endpoint, whose JWT keys carry `use: "jwt-svid"`.
 */
export type JwkSetSource = { readonly type: 'inline'; readonly jwks: JSONWebKeySet } | { readonly type: 'remote'; readonly uri: string };

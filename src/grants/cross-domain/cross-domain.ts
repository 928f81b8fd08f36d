/** RFC 7523 §2.1: the JWT bearer grant. */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** draft-ietf-oauth-identity-assertion-authz-grant: the `typ` of an ID-JAG, its token type and its grant profile. */
export const ID_JAG_TYP = 'oauth-id-jag+jwt';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';
/** RFC 8693 §3 token types. */
export const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** The clock difference tolerated either way, as for every JWT of others. */
export const CLOCK_SKEW_SECONDS = 60;

/** Which profile an assertion follows: an ID-JAG, or a plain RFC 7523 JWT authorization grant. */
export type AssertionProfile = 'id-jag' | 'jwt';

/** `value` as a list of strings: a string is a one-element list; anything else is undefined. */
export function stringList(value: unknown): readonly string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value as string[];
  return undefined;
}

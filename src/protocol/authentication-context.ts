/**
 * Authentication context (docs/passkeys.md#authentication-context): how a user signed in, as `amr`
 * (RFC 8176) and `acr` (OpenID Connect Core §2; the values of the OpenID Connect Extended
 * Authentication Profile ACR Values 1.0). The `acr` of a sign-in follows from its `amr`, so a session,
 * a code, a device approval and a refresh token keep `amr` and every token derives `acr` the same way.
 */

/** A password sign-in (RFC 8176 `pwd`). */
export const PASSWORD_METHODS: readonly string[] = Object.freeze(['pwd']);
/** A passkey sign-in: a hardware-bound key (`hwk`) with user verification (`user`), RFC 8176 §2. */
export const PASSKEY_METHODS: readonly string[] = Object.freeze(['hwk', 'user']);

export const ACR_PASSWORD = 'pwd';
/** Phishing-resistant: a key bound to this origin, never typed into a page. */
export const ACR_PHISHING_RESISTANT = 'phr';
export type Acr = typeof ACR_PASSWORD | typeof ACR_PHISHING_RESISTANT;

/** Discovery's `acr_values_supported`, weakest first. */
export const ACR_VALUES_SUPPORTED: readonly Acr[] = Object.freeze([ACR_PASSWORD, ACR_PHISHING_RESISTANT]);

/** The `acr` of a sign-in with these methods; undefined for tokens that record no sign-in of ours (client tokens, extension grants). */
export function acrOf(methods: readonly string[] | undefined): Acr | undefined {
  if (methods === undefined) return undefined;
  if (methods.includes('hwk') && methods.includes('user')) return ACR_PHISHING_RESISTANT;
  return methods.includes('pwd') ? ACR_PASSWORD : undefined;
}

/** Whether a sign-in of context `actual` meets `wanted`: `phr` meets `pwd` as well (it is the stronger). */
export function meetsAcr(actual: Acr | undefined, wanted: Acr): boolean {
  if (actual === undefined) return false;
  return ACR_VALUES_SUPPORTED.indexOf(actual) >= ACR_VALUES_SUPPORTED.indexOf(wanted);
}

export function isSupportedAcr(value: string): value is Acr {
  return (ACR_VALUES_SUPPORTED as readonly string[]).includes(value);
}

/**
 * What an authorization request asks of the sign-in (`acr_values`, an `acr` claim, a client's setting):
 * any one of these values will do. Undefined: nothing is asked.
 */
export type AcrRequirement = readonly Acr[];

/** Met when the sign-in meets any one of the values; no requirement is always met. */
export function meetsRequirement(actual: Acr | undefined, requirement: AcrRequirement | undefined): boolean {
  return requirement === undefined || requirement.some((wanted) => meetsAcr(actual, wanted));
}

/** The weakest context that meets the requirement: what a sign-in must reach. */
export function weakestAcceptable(requirement: AcrRequirement): Acr {
  return ACR_VALUES_SUPPORTED.find((acr) => meetsRequirement(acr, requirement)) ?? ACR_PHISHING_RESISTANT;
}

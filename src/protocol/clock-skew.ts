/**
 * How far a verifier's clock may differ from ours: tokens are accepted this long after `exp`
 * (RFC 7519 §4.1.4 "some small leeway"), and a retired key stays published this much longer.
 */
export const CLOCK_SKEW_SECONDS = 60;

/** A CSRF token is 43 base64url characters (csrf.ts); anything else fails the check. */
export const MAX_CSRF_TOKEN_LENGTH = 43;

/** A WebAuthn response as JSON (docs/passkeys.md): an RSA signature and client data are well under this. */
export const MAX_CREDENTIAL_JSON_LENGTH = 16 * 1024;

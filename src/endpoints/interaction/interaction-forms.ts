import { AuthorizationParameters } from '../../tokens/authorization/authorization-parameters';
import { MAX_BODY_BYTES } from '../../protocol/form';
import { FormField } from '../../protocol/inspected-parameters';
import { EndSessionParameters } from './end-session-parameters';

// A CSRF token is 43 base64url characters (csrf.ts); anything else fails the check.
const MAX_CSRF_TOKEN_LENGTH = 43;

/**
 * The login form: the authorization request in hidden fields, the CSRF token, the credentials.
 * `PasswordSignIn` refuses credentials over 1024 characters like a wrong password (audited, and the
 * page echoes the username), so here they are bounded by the body only.
 */
export class LoginForm extends AuthorizationParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
  @FormField(MAX_BODY_BYTES) username?: string;
  @FormField(MAX_BODY_BYTES) password?: string;
}

/** A WebAuthn response as JSON (docs/passkeys.md): an RSA signature and client data are well under this. */
export const MAX_CREDENTIAL_JSON_LENGTH = 16 * 1024;

/**
 * The login page's passkey form and the step-up page's: the authorization request in hidden fields,
 * the CSRF token, and the credential the page's script got from `navigator.credentials.get()`.
 */
export class PasskeyForm extends AuthorizationParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
  @FormField(MAX_CREDENTIAL_JSON_LENGTH) credential?: string;
}

/** The consent form: the authorization request in hidden fields, the CSRF token, `allow` or `deny`. */
export class ConsentForm extends AuthorizationParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
  @FormField('allow'.length) decision?: string;
}

/** The logout confirmation: the logout request in hidden fields and the CSRF token. */
export class LogoutForm extends EndSessionParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
}

import { AuthorizationParameters } from './authorization-parameters';
import { MAX_BODY_BYTES } from '../../protocol/form';
import { FormField } from '../../protocol/inspected-parameters';
import { MAX_CREDENTIAL_JSON_LENGTH, MAX_CSRF_TOKEN_LENGTH } from '../interaction/page-forms';

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

/**
 * The login page's passkey form and the step-up page's: the authorization request in hidden fields,
 * the CSRF token, and the credential the page's script got from `navigator.credentials.get()`.
 */
export class PasskeyForm extends AuthorizationParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
  @FormField(MAX_CREDENTIAL_JSON_LENGTH) credential?: string;
}

/** The step-up form: a passkey sign-in, or `decision=cancel`. */
export class StepUpForm extends PasskeyForm {
  @FormField('cancel'.length) decision?: string;
}

/** The consent form: the authorization request in hidden fields, the CSRF token, `allow` or `deny`. */
export class ConsentForm extends AuthorizationParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
  @FormField('allow'.length) decision?: string;
}

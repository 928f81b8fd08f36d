import { MAX_BODY_BYTES } from '../../protocol/form';
import { FormField } from '../../protocol/inspected-parameters';
import { MAX_PASSKEY_NAME_LENGTH } from '../../identity/passkeys/passkey-ceremonies';
import { MAX_CREDENTIAL_JSON_LENGTH, MAX_CSRF_TOKEN_LENGTH } from './page-forms';

// WebAuthn §5.1: a credential id is at most 1023 bytes, 1364 base64url characters.
const MAX_CREDENTIAL_ID_LENGTH = 1364;

/** Every form of the account page carries its CSRF token. */
export class AccountForm {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
}

/** A sign-in on the account page with a password; credentials bounded by the body as on the login page. */
export class AccountPasswordForm extends AccountForm {
  @FormField(MAX_BODY_BYTES) username?: string;
  @FormField(MAX_BODY_BYTES) password?: string;
}

/** A sign-in with a passkey, or a new passkey (with the name the user gives it). */
export class AccountPasskeyForm extends AccountForm {
  @FormField(MAX_CREDENTIAL_JSON_LENGTH) credential?: string;
  // Longer names are cut to MAX_PASSKEY_NAME_LENGTH; a body-sized one is not worth reading.
  @FormField(MAX_PASSKEY_NAME_LENGTH * 4) name?: string;
}

/** Renaming or removing one of the user's passkeys. */
export class PasskeyChangeForm extends AccountForm {
  @FormField(MAX_CREDENTIAL_ID_LENGTH) credential_id?: string;
  @FormField(MAX_PASSKEY_NAME_LENGTH * 4) name?: string;
}

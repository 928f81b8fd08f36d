import { MAX_TYPED_USER_CODE_LENGTH } from '../../tokens/device-authorization/user-code';
import { MAX_BODY_BYTES } from '../../protocol/form';
import { FormField } from '../../protocol/inspected-parameters';
import { MAX_CREDENTIAL_JSON_LENGTH, MAX_CSRF_TOKEN_LENGTH } from './page-forms';

/** The verification page's query (`verification_uri_complete`) and its user-code form. */
export class DeviceEntryForm {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
  @FormField(MAX_TYPED_USER_CODE_LENGTH) user_code?: string;
}

/** Its login form: the user code carried, the credentials bounded by the body as on the login page. */
export class DeviceLoginForm extends DeviceEntryForm {
  @FormField(MAX_BODY_BYTES) username?: string;
  @FormField(MAX_BODY_BYTES) password?: string;
}

/** Its passkey forms, sign-in and step-up: the user code carried, the credential from `navigator.credentials.get()` (docs/passkeys.md). */
export class DevicePasskeyForm extends DeviceEntryForm {
  @FormField(MAX_CREDENTIAL_JSON_LENGTH) credential?: string;
}

/** Its consent form: the user code carried, `allow` or `deny`. */
export class DeviceConsentForm extends DeviceEntryForm {
  @FormField('allow'.length) decision?: string;
}

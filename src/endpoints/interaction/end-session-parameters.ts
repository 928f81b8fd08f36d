import { FormField } from '../../protocol/inspected-parameters';
import { MAX_CSRF_TOKEN_LENGTH } from './page-forms';

const MAX_LENGTH = 16 * 1024;

/** OpenID Connect RP-Initiated Logout 1.0 §2: the parameters of a logout request. */
export class EndSessionParameters {
  @FormField(MAX_LENGTH) id_token_hint?: string;
  @FormField(MAX_LENGTH) client_id?: string;
  @FormField(MAX_LENGTH) post_logout_redirect_uri?: string;
  @FormField(MAX_LENGTH) state?: string;
}

/** The parameters a logout reads, carried through its confirmation page; others are ignored. */
export const END_SESSION_PARAMETERS = [
  'id_token_hint',
  'client_id',
  'post_logout_redirect_uri',
  'state',
] as const satisfies readonly (keyof EndSessionParameters)[];

/** The logout confirmation: the logout request in hidden fields and the CSRF token. */
export class LogoutForm extends EndSessionParameters {
  @FormField(MAX_CSRF_TOKEN_LENGTH) csrf_token?: string;
}

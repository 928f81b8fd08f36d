import { FormField, FormList, type InspectedParameters } from '../../protocol/inspected-parameters';
import { MAX_RESOURCE_INDICATOR_LENGTH, MAX_RESOURCE_INDICATORS } from '../../identity/resources/resource-indicators';

const MAX_LENGTH = 2048;

/**
 * The parameters the authorization endpoint reads (OpenID Connect Core §3.1.2.1, RFC 7636, RFC 9449 §10); others
 * are ignored and not carried through the pages. Each is sent at most once (RFC 6749 §3.1), but
 * RFC 8707 `resource`, which may repeat.
 */
export class AuthorizationParameters {
  @FormField(MAX_LENGTH) client_id?: string;
  @FormField(MAX_LENGTH) redirect_uri?: string;
  @FormField(MAX_LENGTH) response_type?: string;
  @FormField(MAX_LENGTH) response_mode?: string;
  @FormField(MAX_LENGTH) scope?: string;
  @FormField(MAX_LENGTH) state?: string;
  @FormField(MAX_LENGTH) nonce?: string;
  @FormField(MAX_LENGTH) code_challenge?: string;
  @FormField(MAX_LENGTH) code_challenge_method?: string;
  @FormField(MAX_LENGTH) prompt?: string;
  @FormField(MAX_LENGTH) max_age?: string;
  @FormField(MAX_LENGTH) login_hint?: string;
  @FormField(MAX_LENGTH) acr_values?: string;
  @FormField(MAX_LENGTH) claims?: string;
  @FormField(MAX_LENGTH) request?: string;
  @FormField(MAX_LENGTH) request_uri?: string;
  @FormField(MAX_LENGTH) dpop_jkt?: string;
  @FormList(MAX_RESOURCE_INDICATOR_LENGTH, MAX_RESOURCE_INDICATORS) resource?: string | string[];
}

/**
 * A parameter as carried through the pages' hidden fields and stored with a pushed request: one
 * string, a repeated `resource` space-separated (a URI has no spaces; `readResourceIndicators`).
 */
export function carriedValue(value: string | readonly string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(' ') : (value as string | undefined);
}

/** The authorization request as the pipe read it (`PageQuery`, `PageForm`), refusals answered when reached. */
export type AuthorizationInput = InspectedParameters<AuthorizationParameters>;

import type { OAuthError } from '../../protocol/oauth-error';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import type { CarriedParameters } from '../interaction/page';
import type { AuthorizationRequest, ResponseTarget } from './authorization-request';

export type { CarriedParameters };

/** What the authorization endpoint answers; `PageRenderer` (src/endpoints/interaction/) renders it as an `AuthorizationPage`. */
export type AuthorizationOutcome =
  /** RFC 6749 §4.1.2.1: client or redirect URI not trusted: an error page, never a redirect. */
  | { readonly kind: 'error_page'; readonly description: string }
  /** A response at the client's redirect URI: code or error, with `state` and `iss` (RFC 9207). */
  | { readonly kind: 'respond'; readonly target: ResponseTarget; readonly parameters: Readonly<Record<string, string>> }
  | { readonly kind: 'login'; readonly request: AuthorizationRequest; readonly carried: CarriedParameters }
  /** `scopes`: what the consent page asks for, the requested scopes the user has not allowed this client yet. */
  | {
      readonly kind: 'consent';
      readonly request: AuthorizationRequest;
      readonly carried: CarriedParameters;
      readonly session: SignInSession;
      readonly scopes: readonly string[];
    }
  /** RFC 9470: the session's sign-in is weaker than the request needs: a passkey, within the same session. */
  | { readonly kind: 'step_up'; readonly request: AuthorizationRequest; readonly carried: CarriedParameters; readonly session: SignInSession };

/** The authorization error response (RFC 6749 §4.1.2.1, RFC 9207). */
export function errorResponse(target: ResponseTarget, error: OAuthError, issuer: string): AuthorizationOutcome {
  const parameters: Record<string, string> = { error: error.code };
  if (error.description) parameters.error_description = error.description;
  return respond(target, parameters, issuer);
}

export function respond(target: ResponseTarget, parameters: Record<string, string>, issuer: string): AuthorizationOutcome {
  return {
    kind: 'respond',
    target,
    parameters: { ...parameters, ...(target.state === undefined ? {} : { state: target.state }), iss: issuer },
  };
}

import type { OAuthError } from '../../protocol/oauth-error';
import type { AuthorizationPage, CarriedParameters } from '../interaction/page';
import type { AuthorizationRequest, ResponseTarget } from './authorization-request';

export type { CarriedParameters };

/** What the authorization endpoint answers; `PageRenderer` (src/endpoints/interaction/) renders it. */
export type AuthorizationOutcome = AuthorizationPage<AuthorizationRequest, ResponseTarget>;

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

import type { Client } from '../../identity/clients/client';
import { OAuthError } from '../../protocol/oauth-error';
import type { VerifiedDpopProof } from '../../tokens/dpop/dpop-proof';
import type { ResourceLookup } from '../../identity/resources/resource-indicators';
import { carriedValue, type AuthorizationInput } from './authorization-parameters';
import {
  AUTHORIZATION_PARAMETERS,
  UntrustedRedirectError,
  refuseRepeatedParameters,
  resolveRedirectUri,
  responseTarget,
  validateAuthorizationRequest,
} from './authorization-request';

/** RFC 9126 §2.2: the scheme of the `request_uri` values this server issues. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';
/** RFC 9126 §2.2: how long a pushed request waits for its first use at the authorization endpoint. */
export const PUSHED_REQUEST_LIFETIME_SECONDS = 60;
/** Once used, how long the request lives on through the login and consent pages, until a code is issued. */
export const PUSHED_REQUEST_INTERACTION_SECONDS = 30 * 60;

/** The authorization parameters a client pushed, as sent (each a single string). */
export type PushedParameters = Readonly<Record<string, string>>;

/** RFC 9126 §2.2. */
export interface PushedAuthorizationResponse {
  readonly request_uri: string;
  readonly expires_in: number;
}

/** True for a `request_uri` in this server's scheme; any other is `request_uri_not_supported`. */
export function isPushedRequestUri(value: string | undefined): value is string {
  return value !== undefined && value.startsWith(REQUEST_URI_PREFIX);
}

/**
 * RFC 9126 §2.1: the pushed request is validated as the authorization endpoint would, for the
 * authenticated client, and errors are answered directly (§2.3), never at the redirect URI.
 * Returns the parameters to store.
 */
export function validatePushedRequest(parameters: AuthorizationInput, client: Client, catalog: ResourceLookup): PushedParameters {
  refuseRepeatedParameters(parameters);
  if (parameters.sent.request_uri !== undefined) throw OAuthError.invalidRequest('request_uri must not be pushed');
  const clientId = parameters.valid('client_id');
  if (clientId !== undefined && clientId !== client.clientId) throw OAuthError.invalidRequest('client_id is not the authenticated client');
  // Before the redirect URI: a client without the code flow has none to check against.
  if (!client.allowedGrantTypes.includes('authorization_code')) throw OAuthError.unauthorizedClient('the client may not use the authorization code flow');
  validateAuthorizationRequest(parameters, client, responseTarget(parameters, registeredRedirectUri(parameters, client)), catalog);
  const pushed: Record<string, string> = {};
  for (const name of AUTHORIZATION_PARAMETERS) {
    const value = carriedValue(parameters.sent[name]);
    if (value !== undefined && value !== '') pushed[name] = value;
  }
  return { ...pushed, client_id: client.clientId };
}

/**
 * RFC 9449 §10.1: a proof sent with the pushed request binds the code to its key, as `dpop_jkt`
 * would; when both are sent they must name the same key.
 */
export function bindToProofKey(parameters: PushedParameters, proof: VerifiedDpopProof | undefined): PushedParameters {
  if (proof === undefined) return parameters;
  if (parameters.dpop_jkt !== undefined && parameters.dpop_jkt !== proof.jkt) {
    throw new OAuthError('invalid_dpop_proof', 'dpop_jkt is not the thumbprint of the DPoP proof key');
  }
  return { ...parameters, dpop_jkt: proof.jkt };
}

function registeredRedirectUri(parameters: AuthorizationInput, client: Client): string {
  try {
    return resolveRedirectUri(parameters, client);
  } catch (error) {
    if (error instanceof UntrustedRedirectError) throw OAuthError.invalidRedirectUri(error.message);
    throw error;
  }
}

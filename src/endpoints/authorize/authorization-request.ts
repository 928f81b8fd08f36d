import type { Client } from '../../identity/clients/client';
import type { ApiResource } from '../../identity/resources/resource';
import { readAcrRequirement } from '../../protocol/acr-request';
import type { AcrRequirement } from '../../protocol/authentication-context';
import { OAuthError } from '../../protocol/oauth-error';
import { resolveRequestedScopes } from '../../protocol/scope';
import { readResourceIndicators, type ResourceLookup, resolveResourceIndicators, scopesForResources } from '../../identity/resources/resource-indicators';
import type { AuthorizationInput, AuthorizationParameters } from './authorization-parameters';

export type ResponseMode = 'query' | 'form_post';
export type Prompt = 'none' | 'login' | 'consent';

/** Where the authorization response (or error) goes, once the client and redirect URI are trusted. */
export interface ResponseTarget {
  readonly redirectUri: string;
  readonly responseMode: ResponseMode;
  readonly state?: string;
}

/** A validated authorization request (OpenID Connect Core §3.1.2.1, RFC 7636). */
export interface AuthorizationRequest extends ResponseTarget {
  /** False when the client's only registered redirect URI was used without being named. */
  readonly redirectUriSent: boolean;
  readonly client: Client;
  readonly scopes: readonly string[];
  /** RFC 8707: the resource URIs the code's tokens are for; empty when none was requested. */
  readonly resources: readonly string[];
  readonly codeChallenge: string;
  readonly nonce?: string;
  readonly prompts: ReadonlySet<Prompt>;
  /** Seconds. */
  readonly maxAge?: number;
  readonly loginHint?: string;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is bound to (`dpop_jkt`). */
  readonly dpopJkt?: string;
  /** RFC 9470, OpenID Connect Core §3.1.2.1 `acr_values`, §5.5.1.1 `acr`: what the sign-in must reach (docs/passkeys.md#step-up). */
  readonly acrRequirement?: AcrRequirement;
  /** RFC 9126: the pushed request it came from, used up when a code is issued. */
  readonly requestUri?: string;
}

/** The parameters this endpoint reads (`AuthorizationParameters`); others are ignored (and not carried through the pages). */
export const AUTHORIZATION_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'login_hint',
  'acr_values',
  'claims',
  'request',
  'request_uri',
  'resource',
  'dpop_jkt',
] as const satisfies readonly (keyof AuthorizationParameters)[];

// Base64url without padding of a SHA-256 digest: a PKCE S256 challenge, an RFC 7638 thumbprint.
const SHA256_BASE64URL = /^[A-Za-z0-9_-]{43}$/;
const PROMPTS: ReadonlySet<string> = new Set(['none', 'login', 'consent']);

/** A request that cannot be answered at the client's redirect URI: shown on an error page (RFC 6749 §4.1.2.1). */
export class UntrustedRedirectError extends Error {}

function trusted<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new UntrustedRedirectError(error instanceof OAuthError ? error.description : 'invalid request');
  }
}

/** The client's redirect URI for this request: exactly a registered one (RFC 9700 §4.1.1). */
export function resolveRedirectUri(parameters: AuthorizationInput, client: Client): string {
  const requested = trusted(() => parameters.valid('redirect_uri'));
  if (requested === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0];
    throw new UntrustedRedirectError('redirect_uri is required');
  }
  if (!client.redirectUris.includes(requested)) throw new UntrustedRedirectError('redirect_uri is not registered for this client');
  return requested;
}

export function readClientId(parameters: AuthorizationInput): string {
  const clientId = trusted(() => parameters.valid('client_id'));
  if (clientId === undefined) throw new UntrustedRedirectError('client_id is required');
  return clientId;
}

/**
 * Where errors go once client and redirect URI are known: `state` as sent (left out when repeated),
 * `response_mode` as asked when it is valid.
 */
export function responseTarget(parameters: AuthorizationInput, redirectUri: string): ResponseTarget {
  const mode = parameters.accepted('response_mode');
  return { redirectUri, responseMode: mode === 'form_post' ? 'form_post' : 'query', state: parameters.accepted('state') };
}

/** RFC 6749 §3.1: the first parameter the request repeats, before anything else. */
export function refuseRepeatedParameters(parameters: AuthorizationInput): void {
  const repeated = parameters.repeated.find((name) => (AUTHORIZATION_PARAMETERS as readonly string[]).includes(name));
  if (repeated !== undefined) throw OAuthError.invalidRequest(`parameter ${repeated} must not be repeated`);
}

/** Validates everything but the client and redirect URI; errors are answered at the redirect URI. */
export function validateAuthorizationRequest(
  parameters: AuthorizationInput,
  client: Client,
  target: ResponseTarget,
  catalog: ResourceLookup,
): AuthorizationRequest {
  refuseRepeatedParameters(parameters);
  // A state too long to return exactly as sent is refused, not dropped; the error carries no state.
  parameters.valid('state');
  // OpenID Connect Core §6: request objects are not supported (advertised in discovery).
  if (parameters.valid('request') !== undefined) throw OAuthError.requestNotSupported('request objects are not supported');
  if (parameters.valid('request_uri') !== undefined) throw OAuthError.requestUriNotSupported('request_uri is not supported');
  const mode = parameters.valid('response_mode');
  if (mode !== undefined && mode !== 'query' && mode !== 'form_post') throw OAuthError.invalidRequest('response_mode must be query or form_post');
  const responseType = parameters.valid('response_type');
  if (responseType === undefined) throw OAuthError.invalidRequest('response_type is required');
  if (responseType !== 'code') throw OAuthError.unsupportedResponseType('only response_type code is supported');
  if (!client.allowedGrantTypes.includes('authorization_code')) throw OAuthError.unauthorizedClient('the client may not use the authorization code flow');
  const codeChallenge = readCodeChallenge(parameters);
  const dpopJkt = readDpopJkt(parameters.valid('dpop_jkt'));
  // RFC 8707: the resources before the scope, so that invalid_target wins over invalid_scope.
  const targets = resolveResourceIndicators(readResourceIndicators(parameters.listed('resource')), catalog, client);
  const scope = parameters.valid('scope');
  const scopes =
    scope === undefined && client.selfRegistered
      ? scopesOfNamedResources(targets, client)
      : scopesForResources(
          resolveRequestedScopes(scope, client.allowedScopes, (name) => catalog.isKnownScope(name)),
          targets,
          catalog,
        );
  return {
    ...target,
    redirectUriSent: parameters.valid('redirect_uri') !== undefined,
    client,
    scopes,
    resources: targets.map((api) => api.uri ?? ''),
    codeChallenge,
    nonce: parameters.valid('nonce'),
    prompts: readPrompts(parameters.valid('prompt')),
    maxAge: readMaxAge(parameters.valid('max_age')),
    loginHint: parameters.valid('login_hint'),
    dpopJkt,
    acrRequirement: readAcrRequirement({ acrValues: parameters.valid('acr_values'), claims: parameters.valid('claims'), clientRequiresPhr: client.requirePhr }),
  };
}

/**
 * docs/agents.md#what-a-self-registered-client-may-do, least privilege for agents: a client that registered itself and sends no `scope`
 * gets the scopes of the resources it named with `resource` that it may request, never an identity
 * scope or `offline_access`; without a resource either there is nothing to grant (RFC 6749 §3.3).
 */
function scopesOfNamedResources(targets: readonly ApiResource[], client: Client): string[] {
  if (targets.length === 0) throw OAuthError.invalidScope('scope is required: name the scopes, or the resource, the token is for');
  return [...new Set(targets.flatMap((api) => api.scopes))].filter((scope) => client.allowedScopes.includes(scope));
}

/** RFC 7636 §4.3, RFC 9700 §2.1.1: PKCE with S256 from every client; `plain` is refused. */
function readCodeChallenge(parameters: AuthorizationInput): string {
  const challenge = parameters.valid('code_challenge');
  if (challenge === undefined) throw OAuthError.invalidRequest('code_challenge is required (PKCE)');
  if (parameters.valid('code_challenge_method') !== 'S256') throw OAuthError.invalidRequest('code_challenge_method must be S256');
  if (!SHA256_BASE64URL.test(challenge)) throw OAuthError.invalidRequest('code_challenge is not a base64url SHA-256 digest');
  return challenge;
}

/** RFC 9449 §10: the base64url SHA-256 JWK thumbprint (RFC 7638) of the key the code is bound to. */
function readDpopJkt(value: string | undefined): string | undefined {
  if (value !== undefined && !SHA256_BASE64URL.test(value)) throw OAuthError.invalidRequest('dpop_jkt is not a base64url SHA-256 JWK thumbprint');
  return value;
}

/** OpenID Connect Core §3.1.2.1: space-separated; `none` stands alone. */
function readPrompts(value: string | undefined): ReadonlySet<Prompt> {
  if (value === undefined) return new Set();
  const prompts = value.split(' ').filter((prompt) => prompt.length > 0);
  const unknown = prompts.find((prompt) => !PROMPTS.has(prompt));
  if (unknown !== undefined) throw OAuthError.invalidRequest(`prompt ${unknown.slice(0, 32)} is not supported`);
  if (prompts.includes('none') && prompts.length > 1) throw OAuthError.invalidRequest('prompt none must not be combined with other values');
  return new Set(prompts as Prompt[]);
}

function readMaxAge(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw OAuthError.invalidRequest('max_age must be a non-negative integer');
  return Number(value);
}

import type { JSONWebKeySet } from 'jose';
import { publicJwkSet } from './public-jwk-set';
import { isLoopbackHost } from './outbound-address.policy';

/** How a self-registered client authenticates at the token endpoint (RFC 7591 §2). */
export type SelfRegisteredAuthMethod = 'none' | 'private_key_jwt' | 'client_secret_basic';

/** RFC 7591 §3.2.2 error codes; a metadata document's problems are told with the same words. */
export class ClientMetadataError extends Error {
  constructor(
    readonly code: 'invalid_redirect_uri' | 'invalid_client_metadata',
    readonly description: string,
  ) {
    super(description);
  }
}

/** Client metadata (RFC 7591 §2) as Tollgate uses it; other members are ignored. */
export interface ClientMetadata {
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  readonly clientName?: string;
  readonly clientUri?: string;
  readonly logoUri?: string;
  readonly tokenEndpointAuthMethod: SelfRegisteredAuthMethod;
  /** OpenID Connect Dynamic Client Registration §2 (MCP 2026-07-28 asks clients to send it): `web` or `native`. */
  readonly applicationType?: 'web' | 'native';
  readonly jwks?: JSONWebKeySet;
  readonly jwksUri?: string;
  /** `grant_types` and `scope` as given: they may narrow what a self-registered client gets, never widen it. */
  readonly grantTypes?: readonly string[];
  readonly scope?: readonly string[];
}

/** What one way of self-registration accepts (docs/agents.md). */
export interface ClientMetadataRules {
  readonly authMethods: readonly SelfRegisteredAuthMethod[];
  /** RFC 7591 §2: `client_secret_basic` for registration; `none` for metadata documents. */
  readonly defaultAuthMethod: SelfRegisteredAuthMethod;
  /** Whether `jwks_uri` is accepted (else only an inline `jwks`). */
  readonly jwksUri: boolean;
}

export const MAX_REDIRECT_URIS = 10;
export const MAX_URI_LENGTH = 512;
const MAX_NAME_LENGTH = 100;
const MAX_SCOPE_LENGTH = 1000;

const invalid = (description: string) => new ClientMetadataError('invalid_client_metadata', description);

/** Validates client metadata (RFC 7591 §2) under `rules`; throws `ClientMetadataError`. */
export function readClientMetadata(raw: unknown, rules: ClientMetadataRules): ClientMetadata {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('the client metadata must be a JSON object');
  const metadata = raw as Record<string, unknown>;
  const method = optionalString(metadata, 'token_endpoint_auth_method', 64) ?? rules.defaultAuthMethod;
  if (!(rules.authMethods as readonly string[]).includes(method)) {
    throw invalid(`token_endpoint_auth_method must be one of ${rules.authMethods.join(', ')}`);
  }
  const redirectUris = uriList(metadata, 'redirect_uris', true, 'invalid_redirect_uri');
  const postLogoutRedirectUris = uriList(metadata, 'post_logout_redirect_uris', false, 'invalid_client_metadata');
  const keys = readKeys(metadata, method as SelfRegisteredAuthMethod, rules);
  const clientName = optionalString(metadata, 'client_name', MAX_NAME_LENGTH);
  const clientUri = optionalWebUrl(metadata, 'client_uri');
  const logoUri = optionalWebUrl(metadata, 'logo_uri');
  const applicationType = optionalString(metadata, 'application_type', 16);
  if (applicationType !== undefined && applicationType !== 'web' && applicationType !== 'native') throw invalid('application_type must be web or native');
  const grantTypes = optionalStringList(metadata, 'grant_types');
  const scope = optionalString(metadata, 'scope', MAX_SCOPE_LENGTH)
    ?.split(' ')
    .filter((token) => token !== '');
  return {
    redirectUris,
    postLogoutRedirectUris,
    tokenEndpointAuthMethod: method as SelfRegisteredAuthMethod,
    ...keys,
    ...(clientName === undefined ? {} : { clientName }),
    ...(clientUri === undefined ? {} : { clientUri }),
    ...(logoUri === undefined ? {} : { logoUri }),
    ...(applicationType === undefined ? {} : { applicationType }),
    ...(grantTypes === undefined ? {} : { grantTypes }),
    ...(scope === undefined ? {} : { scope }),
  };
}

/**
 * Why a redirect URI cannot be registered by a client itself, or undefined: absolute, no fragment,
 * `https`, or `http` on a loopback host (RFC 8252 §7.3 native apps).
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `a redirect URI must be at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'a redirect URI must be an absolute URL';
  }
  if (uri.includes('#')) return 'a redirect URI must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'a redirect URI must not carry user information';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'a redirect URI must be https, or http on a loopback address';
}

/** Whether every redirect URI is on a loopback host: a native or local app any program on the machine could be. */
export function allLoopback(redirectUris: readonly string[]): boolean {
  return redirectUris.length > 0 && redirectUris.every((uri) => isLoopbackHost(new URL(uri).hostname));
}

function uriList(metadata: Record<string, unknown>, name: string, required: boolean, code: ClientMetadataError['code']): string[] {
  const value = metadata[name];
  if (value === undefined && !required) return [];
  if (!Array.isArray(value) || value.length === 0) throw new ClientMetadataError(code, `${name} must be a non-empty array of URIs`);
  if (value.length > MAX_REDIRECT_URIS) throw new ClientMetadataError(code, `${name} may hold at most ${MAX_REDIRECT_URIS} URIs`);
  for (const uri of value) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'a redirect URI must be a string';
    if (problem) throw new ClientMetadataError(code, `${name}: ${problem}`);
  }
  return [...new Set(value as string[])];
}

function readKeys(metadata: Record<string, unknown>, method: SelfRegisteredAuthMethod, rules: ClientMetadataRules): Pick<ClientMetadata, 'jwks' | 'jwksUri'> {
  const { jwks, jwks_uri: jwksUri } = metadata;
  if (method !== 'private_key_jwt') {
    if (jwks !== undefined || jwksUri !== undefined) throw invalid('jwks and jwks_uri are for token_endpoint_auth_method private_key_jwt');
    return {};
  }
  if ((jwks === undefined) === (jwksUri === undefined)) {
    throw invalid(rules.jwksUri ? 'private_key_jwt needs exactly one of jwks and jwks_uri' : 'private_key_jwt needs jwks');
  }
  if (jwksUri !== undefined) {
    if (!rules.jwksUri) throw invalid('jwks_uri is not accepted here: give the keys as jwks');
    const uri = optionalWebUrl(metadata, 'jwks_uri');
    if (uri === undefined || !uri.startsWith('https:')) throw invalid('jwks_uri must be an https URL');
    return { jwksUri: uri };
  }
  try {
    return { jwks: publicJwkSet(jwks) };
  } catch (error) {
    throw invalid(`jwks: ${(error as Error).message}`);
  }
}

function optionalString(metadata: Record<string, unknown>, name: string, maxLength: number): string | undefined {
  const value = metadata[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) throw invalid(`${name} must be a string of 1 to ${maxLength} characters`);
  return value;
}

function optionalStringList(metadata: Record<string, unknown>, name: string): string[] | undefined {
  const value = metadata[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 20 || !value.every((item) => typeof item === 'string' && item.length <= 200)) {
    throw invalid(`${name} must be an array of at most 20 strings`);
  }
  return value as string[];
}

function optionalWebUrl(metadata: Record<string, unknown>, name: string): string | undefined {
  const value = optionalString(metadata, name, MAX_URI_LENGTH);
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw invalid(`${name} must be an http(s) URL`);
  return value;
}

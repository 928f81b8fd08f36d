import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ClientMetadataError, readClientMetadata, type ClientMetadata, type ClientMetadataRules } from '../../identity/clients/self-registered/client-metadata';
import { selfRegisteredClient } from '../../identity/clients/self-registered/self-registered-client';
import { deliveryUrlProblem } from '../../identity/signals/delivery-url';
import { OAuthError } from '../../protocol/oauth-error';
import type { ResourceCatalog } from '../../identity/resources/resource-catalog';

/** RFC 7591 §2: `client_secret_basic` when not given; secrets only by Basic; keys only inline. */
export const REGISTRATION_RULES: ClientMetadataRules = {
  authMethods: ['none', 'private_key_jwt', 'client_secret_basic'],
  defaultAuthMethod: 'client_secret_basic',
  jwksUri: false,
};

/** A dynamically registered client as stored: the domain settings, the wire metadata, hashes only. */
export interface RegisteredClientRecord {
  readonly clientId: string;
  readonly clientName?: string;
  readonly grantTypes: readonly string[];
  readonly scopes: readonly string[];
  readonly public: boolean;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  readonly jwks?: unknown;
  readonly backchannelLogout?: BackchannelLogout;
  /** RFC 7591 §3.2.1: the metadata as registered (after Tollgate's narrowing), returned by RFC 7592 reads. */
  readonly registration: Readonly<Record<string, unknown>>;
}

/** OpenID Connect Back-Channel Logout 1.0 §2.2: where the client hears that a session ended (docs/signals.md). */
export interface BackchannelLogout {
  readonly uri: string;
  readonly sessionRequired: boolean;
}

export interface RegistrationMetadata extends ClientMetadata {
  readonly backchannelLogout?: BackchannelLogout;
}

/**
 * Validates a registration or update request's metadata (RFC 7591 §2); errors are RFC 7591 §3.2.2's.
 * `allowLoopbackHttp`: an http issuer (development) accepts an http back-channel logout URI on a loopback host.
 */
export function readRegistrationMetadata(body: Readonly<Record<string, unknown>>, allowLoopbackHttp: boolean): RegistrationMetadata {
  try {
    const metadata = readClientMetadata(body, REGISTRATION_RULES);
    const backchannelLogout = readBackchannelLogout(body, allowLoopbackHttp);
    return backchannelLogout ? { ...metadata, backchannelLogout } : metadata;
  } catch (error) {
    if (error instanceof ClientMetadataError) {
      throw error.code === 'invalid_redirect_uri' ? OAuthError.invalidRedirectUri(error.description) : OAuthError.invalidClientMetadata(error.description);
    }
    throw error;
  }
}

function readBackchannelLogout(body: Readonly<Record<string, unknown>>, allowLoopbackHttp: boolean): BackchannelLogout | undefined {
  const { backchannel_logout_uri: uri, backchannel_logout_session_required: sessionRequired } = body;
  if (sessionRequired !== undefined && typeof sessionRequired !== 'boolean')
    throw OAuthError.invalidClientMetadata('backchannel_logout_session_required must be a boolean');
  if (uri === undefined) return undefined;
  if (typeof uri !== 'string') throw OAuthError.invalidClientMetadata('backchannel_logout_uri must be a string');
  const problem = deliveryUrlProblem(uri, allowLoopbackHttp);
  if (problem) throw OAuthError.invalidClientMetadata(`backchannel_logout_uri ${problem}`);
  return { uri, sessionRequired: sessionRequired === true };
}

/**
 * What is stored for a registration: the grants and scopes the self-registered rules allow
 * (docs/agents.md), and the metadata the response states, with `grant_types` and `scope` as granted.
 */
export function registeredClientRecord(clientId: string, metadata: RegistrationMetadata, catalog: ResourceCatalog): RegisteredClientRecord {
  const { backchannelLogout } = metadata;
  const client = selfRegisteredClient({ clientId, kind: 'dynamic', metadata }, catalog);
  const registration: Record<string, unknown> = {
    redirect_uris: metadata.redirectUris,
    token_endpoint_auth_method: metadata.tokenEndpointAuthMethod,
    grant_types: client.allowedGrantTypes,
    response_types: ['code'],
    scope: client.allowedScopes.join(' '),
    // OpenID Connect Dynamic Client Registration §2: `web` when not given.
    application_type: metadata.applicationType ?? 'web',
    ...(metadata.postLogoutRedirectUris.length > 0 ? { post_logout_redirect_uris: metadata.postLogoutRedirectUris } : {}),
    ...(metadata.clientName === undefined ? {} : { client_name: metadata.clientName }),
    ...(metadata.clientUri === undefined ? {} : { client_uri: metadata.clientUri }),
    ...(metadata.logoUri === undefined ? {} : { logo_uri: metadata.logoUri }),
    ...(metadata.jwks === undefined ? {} : { jwks: metadata.jwks }),
    ...(backchannelLogout ? { backchannel_logout_uri: backchannelLogout.uri, backchannel_logout_session_required: backchannelLogout.sessionRequired } : {}),
  };
  return {
    clientId,
    ...(metadata.clientName === undefined ? {} : { clientName: metadata.clientName }),
    grantTypes: client.allowedGrantTypes,
    scopes: client.allowedScopes,
    public: client.public === true,
    redirectUris: metadata.redirectUris,
    postLogoutRedirectUris: metadata.postLogoutRedirectUris,
    ...(metadata.jwks === undefined ? {} : { jwks: metadata.jwks }),
    ...(backchannelLogout ? { backchannelLogout } : {}),
    registration,
  };
}

/** 128 bits and more of randomness, base64url: client ids, secrets, registration and initial access tokens. */
export function generateCredential(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Constant-time comparison of a presented token with its stored hash (`hashClientSecret`'s form). */
export function tokenMatches(presented: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'base64');
  const actual = createHash('sha256').update(presented, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

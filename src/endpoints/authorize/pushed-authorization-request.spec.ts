import type { Client } from '../../identity/clients/client';
import type { FormBody } from '../../protocol/form';
import { inspectParameters } from '../../protocol/inspected-parameters';
import { OAuthError } from '../../protocol/oauth-error';
import { AuthorizationParameters } from './authorization-parameters';
import { isPushedRequestUri, validatePushedRequest } from './pushed-authorization-request';

const webapp: Client = {
  clientId: 'webapp',
  enabled: true,
  allowedGrantTypes: ['authorization_code'],
  allowedScopes: ['openid', 'profile'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 86_400,
  secrets: [],
  redirectUris: ['https://web.example/cb', 'https://web.example/other'],
  postLogoutRedirectUris: [],
  requireConsent: true,
};
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const valid: FormBody = {
  response_type: 'code',
  redirect_uri: 'https://web.example/cb',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  scope: 'openid',
  state: 's',
};
const push = (body: FormBody, client = webapp) =>
  validatePushedRequest(inspectParameters(AuthorizationParameters, body), client, {
    isKnownScope: (scope: string) => scope !== 'unknown',
    isIdentityScope: () => false,
    apiResourceByUri: () => undefined,
  });
const refusal = (body: FormBody, client = webapp): string | undefined => {
  try {
    push(body, client);
    return undefined;
  } catch (error) {
    return error instanceof OAuthError ? error.code : 'not an OAuthError';
  }
};

describe('validatePushedRequest', () => {
  it('refuses a request_uri, even empty, and a repeated parameter', () => {
    expect(refusal({ ...valid, request_uri: 'urn:ietf:params:oauth:request_uri:x' })).toBe('invalid_request');
    expect(refusal({ ...valid, request_uri: '' })).toBe('invalid_request');
    expect(refusal({ ...valid, scope: ['openid', 'openid'] })).toBe('invalid_request');
  });

  it('refuses a client_id other than the authenticated client', () => {
    expect(refusal({ ...valid, client_id: 'spa' })).toBe('invalid_request');
  });

  it('refuses a client without the code flow before looking at its redirect URIs', () => {
    expect(refusal(valid, { ...webapp, allowedGrantTypes: ['client_credentials'], redirectUris: [] })).toBe('unauthorized_client');
  });

  it('refuses an unregistered redirect_uri, or none when several are registered, as invalid_redirect_uri', () => {
    expect(refusal({ ...valid, redirect_uri: 'https://evil.example/cb' })).toBe('invalid_redirect_uri');
    expect(refusal({ ...valid, redirect_uri: undefined })).toBe('invalid_redirect_uri');
  });

  it('refuses what the authorization endpoint refuses', () => {
    expect(refusal({ ...valid, scope: 'openid unknown' })).toBe('invalid_scope');
    expect(refusal({ ...valid, code_challenge: undefined })).toBe('invalid_request');
    expect(refusal({ ...valid, response_type: 'token' })).toBe('unsupported_response_type');
    expect(refusal({ ...valid, request: 'a.b.c' })).toBe('request_not_supported');
  });

  it('keeps the authorization parameters sent, without unknown or empty ones, for the authenticated client', () => {
    expect(push({ ...valid, login_hint: '', client_secret: 'x', extra: 'y' })).toEqual({ ...valid, client_id: 'webapp' });
  });
});

describe('isPushedRequestUri', () => {
  it("is true only for this server's URN scheme", () => {
    expect(isPushedRequestUri(undefined)).toBe(false);
    expect(isPushedRequestUri('https://client.example/request.jwt')).toBe(false);
    expect(isPushedRequestUri('urn:ietf:params:oauth:request_uri:abc')).toBe(true);
  });
});

import type { Client } from '../../identity/clients/client';
import type { FormBody } from '../../protocol/form';
import { inspectParameters } from '../../protocol/inspected-parameters';
import { AuthorizationParameters } from './authorization-parameters';
import { UntrustedRedirectError, resolveRedirectUri, responseTarget, validateAuthorizationRequest } from './authorization-request';

const spa: Client = {
  clientId: 'spa',
  enabled: true,
  allowedGrantTypes: ['authorization_code', 'refresh_token'],
  allowedScopes: ['openid', 'profile', 'offline_access'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 86_400,
  secrets: [],
  public: true,
  redirectUris: ['https://app.example/cb', 'https://app.example/other'],
  postLogoutRedirectUris: [],
  requireConsent: false,
};
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const valid: FormBody = { client_id: 'spa', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid' };
const target = { redirectUri: 'https://app.example/cb', responseMode: 'query' as const };
const catalog = { isKnownScope: (scope: string) => scope !== 'unknown', isIdentityScope: () => false, apiResourceByUri: () => undefined };
const read = (body: FormBody) => inspectParameters(AuthorizationParameters, body);
const validate = (parameters: FormBody) => validateAuthorizationRequest(read(parameters), spa, target, catalog);

describe('resolveRedirectUri', () => {
  it('refuses an unregistered URI, a missing one when several are registered, and a repeated one', () => {
    expect(() => resolveRedirectUri(read({ redirect_uri: 'https://app.example/cb/' }), spa)).toThrow(UntrustedRedirectError);
    expect(() => resolveRedirectUri(read({ redirect_uri: 'https://APP.example/cb' }), spa)).toThrow(UntrustedRedirectError);
    expect(() => resolveRedirectUri(read({}), spa)).toThrow(UntrustedRedirectError);
    expect(() => resolveRedirectUri(read({ redirect_uri: ['https://app.example/cb', 'https://app.example/cb'] }), spa)).toThrow(UntrustedRedirectError);
  });

  it('takes an exactly registered URI, or the only one when none is named', () => {
    expect(resolveRedirectUri(read({ redirect_uri: 'https://app.example/other' }), spa)).toBe('https://app.example/other');
    expect(resolveRedirectUri(read({}), { ...spa, redirectUris: ['https://one.example/cb'] })).toBe('https://one.example/cb');
  });
});

describe('responseTarget', () => {
  it('keeps state as sent (not an overlong one) and falls back to query for an unknown or repeated response_mode', () => {
    expect(responseTarget(read({ state: 'a b', response_mode: 'form_post' }), 'https://x/cb')).toEqual({
      redirectUri: 'https://x/cb',
      responseMode: 'form_post',
      state: 'a b',
    });
    expect(responseTarget(read({ state: ['1', '2'], response_mode: 'fragment' }), 'https://x/cb')).toEqual({
      redirectUri: 'https://x/cb',
      responseMode: 'query',
      state: undefined,
    });
    expect(responseTarget(read({ state: 's'.repeat(2049) }), 'https://x/cb').state).toBeUndefined();
  });
});

describe('validateAuthorizationRequest', () => {
  it.each<[string, FormBody, string]>([
    ['a repeated parameter', { ...valid, nonce: ['a', 'b'] }, 'invalid_request'],
    ['a request object', { ...valid, request: 'x' }, 'request_not_supported'],
    ['a request_uri', { ...valid, request_uri: 'x' }, 'request_uri_not_supported'],
    ['response_type token', { ...valid, response_type: 'token' }, 'unsupported_response_type'],
    ['no PKCE', { ...valid, code_challenge: undefined }, 'invalid_request'],
    ['PKCE plain', { ...valid, code_challenge_method: 'plain' }, 'invalid_request'],
    ['an unknown scope', { ...valid, scope: 'openid unknown' }, 'invalid_scope'],
    ['prompt none with consent', { ...valid, prompt: 'consent none' }, 'invalid_request'],
    ['max_age that is not a number', { ...valid, max_age: '1e3' }, 'invalid_request'],
    ['an overlong nonce', { ...valid, nonce: 'n'.repeat(2049) }, 'invalid_request'],
    ['a dpop_jkt that is no SHA-256 thumbprint', { ...valid, dpop_jkt: `${'A'.repeat(42)}=` }, 'invalid_request'],
    ['an overlong state, before anything but a repeated parameter', { ...valid, response_type: 'token', state: 's'.repeat(2049) }, 'invalid_request'],
  ])('refuses %s', (_, parameters, code) => {
    expect(() => validate(parameters)).toThrow(expect.objectContaining({ code }));
  });

  it('refuses the first parameter repeated, in the order sent, before anything else', () => {
    expect(() => validate({ request: 'x', ...valid, nonce: ['a', 'b'], state: ['1', '2'] })).toThrow(
      expect.objectContaining({ code: 'invalid_request', description: 'parameter nonce must not be repeated' }),
    );
  });

  it('refuses an overlong parameter only when it is read', () => {
    expect(() => validate({ ...valid, response_type: 'token', nonce: 'n'.repeat(2049) })).toThrow(
      expect.objectContaining({ code: 'unsupported_response_type' }),
    );
  });

  it('refuses a client without the authorization_code grant', () => {
    expect(() => validateAuthorizationRequest(read(valid), { ...spa, allowedGrantTypes: ['refresh_token'] }, target, catalog)).toThrow(
      expect.objectContaining({ code: 'unauthorized_client' }),
    );
  });

  it('reads a valid request, defaulting scope to the allowed ones but offline_access', () => {
    const request = validate({ ...valid, scope: undefined, prompt: 'login consent', max_age: '0', nonce: 'n', login_hint: 'alice', extra: 'ignored' });
    expect(request).toMatchObject({ scopes: ['openid', 'profile'], codeChallenge: challenge, nonce: 'n', maxAge: 0, loginHint: 'alice' });
    expect([...request.prompts]).toEqual(['login', 'consent']);
  });

  it('reads dpop_jkt, the DPoP key the code is bound to (RFC 9449 §10)', () => {
    expect(validate({ ...valid, dpop_jkt: challenge }).dpopJkt).toBe(challenge);
    expect(validate(valid).dpopJkt).toBeUndefined();
  });

  it('gives a client that registered itself and sends no scope the scopes of the resources it named, or invalid_scope without one (docs/agents.md#what-a-self-registered-client-may-do)', () => {
    const notes = { name: 'notes', scopes: ['notes', 'notes.admin'], uri: 'https://notes.example/mcp', openToSelfRegistered: true };
    const withNotes = { ...catalog, apiResourceByUri: (uri: string) => (uri === notes.uri ? notes : undefined) };
    const agent: Client = { ...spa, allowedScopes: ['openid', 'profile', 'offline_access', 'notes'], selfRegistered: 'metadata_document' };
    const noScope = read({ ...valid, scope: undefined, resource: notes.uri });
    expect(validateAuthorizationRequest(noScope, agent, target, withNotes).scopes).toEqual(['notes']);
    expect(() => validateAuthorizationRequest(read({ ...valid, scope: undefined }), agent, target, withNotes)).toThrow(
      expect.objectContaining({ code: 'invalid_scope' }),
    );
    // The operator's clients keep their default: every allowed scope but offline_access.
    expect(validateAuthorizationRequest(read({ ...valid, scope: undefined }), spa, target, withNotes).scopes).toEqual(['openid', 'profile']);
  });

  it('records whether redirect_uri was named, which the token request must then repeat (RFC 6749 §4.1.3)', () => {
    expect(validate(valid).redirectUriSent).toBe(false);
    expect(validate({ ...valid, redirect_uri: 'https://app.example/cb' }).redirectUriSent).toBe(true);
  });
});

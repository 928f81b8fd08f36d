import { BadRequestException, NotFoundException } from '@nestjs/common';
import { errorCodes } from 'fastify';
import { OAuthError } from '../../protocol/oauth-error';
import { renderOAuthError, toOAuthError, type ErrorReply } from './oauth-error-renderer';
import type { OAuthRouteOptions } from './oauth-route';

const oauth = (code: string, status: number, description: string) => expect.objectContaining({ code, status, description });

describe('toOAuthError', () => {
  it('returns an OAuthError unchanged', () => {
    const error = OAuthError.invalidGrant('token is required');
    expect(toOAuthError(error)).toBe(error);
  });

  it('turns a body over the limit (Fastify 413) into invalid_request with 413', () => {
    expect(toOAuthError(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())).toEqual(oauth('invalid_request', 413, 'Request body is too large'));
  });

  it('turns an unsupported content type (Fastify 415) into invalid_request with 400', () => {
    expect(toOAuthError(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/plain'))).toEqual(oauth('invalid_request', 400, 'Unsupported content type'));
  });

  it('turns other client errors, from Fastify or Nest, into invalid_request with 400', () => {
    expect(toOAuthError(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())).toEqual(oauth('invalid_request', 400, 'Malformed request'));
    expect(toOAuthError(new BadRequestException('details'))).toEqual(oauth('invalid_request', 400, 'Malformed request'));
  });

  it('keeps 404 and 405 as invalid_request with their status', () => {
    expect(toOAuthError(new NotFoundException())).toEqual(oauth('invalid_request', 404, 'Not found'));
    expect(toOAuthError({ statusCode: 405 })).toEqual(oauth('invalid_request', 405, 'Method not allowed'));
  });

  it('turns an unreachable database into temporarily_unavailable, 503, retry after 5 s', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const error = toOAuthError({ message: 'query failed', driverError: refused });
    expect(error).toEqual(oauth('temporarily_unavailable', 503, 'The service is temporarily unavailable; retry later'));
    expect(error.options.retryAfterSeconds).toBe(5);
  });

  it.each([
    ['an unexpected Error', new TypeError("Cannot read properties of undefined (reading 'clientId')")],
    ['an error with a 5xx status', Object.assign(new Error('upstream'), { statusCode: 502 })],
    ['a thrown string', 'boom'],
    ['a database error that is not about the connection', Object.assign(new Error('duplicate key'), { code: '23505' })],
  ])('turns %s into server_error 500 with a fixed description, keeping the cause', (_, thrown) => {
    const error = toOAuthError(thrown);
    expect(error).toEqual(oauth('server_error', 500, 'An unexpected error occurred'));
    expect(error.cause).toBe(thrown);
  });
});

describe('renderOAuthError', () => {
  function render(error: OAuthError, route?: OAuthRouteOptions) {
    const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
    const reply: ErrorReply = {
      status: (code: number) => ((sent.status = code), reply),
      header: (name: string, value: string) => ((sent.headers[name.toLowerCase()] = value), reply),
      type: (value: string) => ((sent.headers['content-type'] = value), reply),
      send: (payload: string) => ((sent.body = JSON.parse(payload)), reply),
    };
    renderOAuthError(reply, error, 'http://localhost:5000', route);
    return sent;
  }

  const noStore = { 'cache-control': 'no-store', pragma: 'no-cache', 'content-type': 'application/json; charset=utf-8' };

  it('writes the status, the JSON body and no-store headers', () => {
    expect(render(OAuthError.invalidGrant('token is required'))).toEqual({
      status: 400,
      headers: noStore,
      body: { error: 'invalid_grant', error_description: 'token is required' },
    });
  });

  it('leaves error_description out when there is none', () => {
    expect(render(new OAuthError('invalid_request')).body).toEqual({ error: 'invalid_request' });
  });

  it('adds a Basic challenge to invalid_client after Basic authentication', () => {
    expect(render(OAuthError.invalidClient('unknown client', { challenge: 'Basic' })).headers).toEqual({
      ...noStore,
      'www-authenticate': 'Basic realm="http://localhost:5000"',
    });
  });

  const resource: OAuthRouteOptions = { challenge: 'Bearer' };

  it('adds a bare Bearer challenge when no token was presented on a Bearer route (RFC 6750 §3.1)', () => {
    const sent = render(OAuthError.missingBearerToken(), resource);
    expect([sent.status, sent.headers['www-authenticate']]).toEqual([401, 'Bearer realm="http://localhost:5000"']);
  });

  it('adds a Bearer challenge with error, description and scope on a Bearer route', () => {
    const sent = render(OAuthError.insufficientScope('needs openid', 'openid'), resource);
    expect([sent.status, sent.headers['www-authenticate']]).toEqual([
      403,
      'Bearer realm="http://localhost:5000", error="insufficient_scope", error_description="needs openid", scope="openid"',
    ]);
  });

  it('adds a Bearer challenge to a malformed request on a Bearer route', () => {
    expect(render(OAuthError.invalidRequest('the Authorization header is malformed'), resource).headers['www-authenticate']).toBe(
      'Bearer realm="http://localhost:5000", error="invalid_request", error_description="the Authorization header is malformed"',
    );
  });

  it.each([
    ['a token error on a route that declares no challenge', OAuthError.missingBearerToken(), {}],
    ['an error RFC 6750 §3.1 does not name on a Bearer route', OAuthError.invalidClientMetadata('redirect_uris is required'), resource],
    ['an unavailable service on a Bearer route', OAuthError.temporarilyUnavailable(), resource],
    ['a 404 on a Bearer route', OAuthError.invalidRequest('Not found', { status: 404 }), resource],
  ])('adds no Bearer challenge to %s', (_, error, route) => {
    expect(render(error, route).headers['www-authenticate']).toBeUndefined();
  });

  it("keeps the error's DPoP challenge on a Bearer route (RFC 9449 §7.1)", () => {
    const sent = render(OAuthError.invalidToken('the access token is not DPoP-bound', { challenge: 'DPoP', algs: 'ES256' }), resource);
    expect(sent.headers['www-authenticate']).toBe(
      'DPoP realm="http://localhost:5000", error="invalid_token", error_description="the access token is not DPoP-bound", algs="ES256"',
    );
  });

  it('keeps error_description to the characters RFC 6749 §5.2 allows and 256 of them, in body and challenge alike', () => {
    const sent = render(OAuthError.invalidToken(`grant_type "a\\b\u0000\u00e9\n${'x'.repeat(300)}`), resource);
    const description = `grant_type ab${'x'.repeat(256 - 'grant_type "a\\b\u0000\u00e9\n'.length)}`;
    expect(sent.body).toEqual({ error: 'invalid_token', error_description: description });
    expect(sent.headers['www-authenticate']).toBe(`Bearer realm="http://localhost:5000", error="invalid_token", error_description="${description}"`);
  });

  it('adds Retry-After to temporarily_unavailable', () => {
    expect(render(OAuthError.temporarilyUnavailable())).toEqual({
      status: 503,
      headers: { ...noStore, 'retry-after': '5' },
      body: { error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable; retry later' },
    });
  });
});

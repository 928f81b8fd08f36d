import { MAX_BODY_BYTES } from './form';
import { bearerTokenFromHeader, extractBearerToken, type BearerTokenCarrier } from './bearer-token';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const FORM = 'application/x-www-form-urlencoded';

const get = (authorization?: string): BearerTokenCarrier => ({ method: 'GET', headers: { authorization } });
const post = (body: unknown, headers: BearerTokenCarrier['headers'] = { 'content-type': FORM }): BearerTokenCarrier => ({
  method: 'POST',
  headers,
  body,
});

// No challenge of its own: the route's `OAuthRoute({ challenge: 'Bearer' })` adds it (oauth-error-renderer.spec.ts).
const invalidRequest = (description: string) => expect.objectContaining({ code: 'invalid_request', status: 400, description, options: {} });

describe('bearerTokenFromHeader', () => {
  it.each([
    ['Bearer with no token', 'Bearer', 'the Bearer authorization header carries no token'],
    ['Bearer with only spaces after it', 'Bearer    ', 'the Bearer authorization header carries no token'],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`, 'the Bearer authorization header is malformed'],
    ['a character outside b64token', 'Bearer abc,def', 'the Bearer authorization header is malformed'],
    ['padding inside the token', 'Bearer ab=cd', 'the Bearer authorization header is malformed'],
    ['a tab instead of a space', `Bearer\t${TOKEN}`, 'the Authorization header is malformed'],
    ['an empty header', '', 'the Authorization header is malformed'],
    ['no scheme', `=${TOKEN}`, 'the Authorization header is malformed'],
    ['another scheme with broken credentials', 'Basic !!not-base64!!', 'the Authorization header is malformed'],
    ['another scheme with an unterminated quoted string', 'Digest realm="x', 'the Authorization header is malformed'],
  ])('refuses %s as invalid_request', (_, header, description) => {
    expect(() => bearerTokenFromHeader(header)).toThrow(invalidRequest(description));
  });

  it.each([
    ['no header', undefined],
    ['a well-formed Basic header', `Basic ${Buffer.from('frontend:frontend-secret').toString('base64')}`],
    ['another scheme with auth-params', 'Digest username="alice", realm="x", nc=00000001'],
    ['a scheme alone', 'Negotiate'],
    ['a scheme that only starts with Bearer', `Bearerx ${TOKEN}`],
  ])('returns undefined for %s: the request carries no bearer token', (_, header) => {
    expect(bearerTokenFromHeader(header)).toBeUndefined();
  });

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('reads the token after the scheme written %s (RFC 7235 §2.1)', (scheme) => {
    expect(bearerTokenFromHeader(`${scheme} ${TOKEN}`)).toBe(TOKEN);
  });

  it('accepts b64token padding and more than one space', () => {
    expect(bearerTokenFromHeader('Bearer   a-b.c_d~e+f/g==')).toBe('a-b.c_d~e+f/g==');
  });
});

describe('extractBearerToken', () => {
  it('refuses a token in both the header and the body', () => {
    expect(() => extractBearerToken(post({ access_token: TOKEN }, { authorization: `Bearer ${TOKEN}`, 'content-type': FORM }))).toThrow(
      invalidRequest('the access token was sent in more than one place'),
    );
  });

  it('refuses a repeated access_token body parameter', () => {
    expect(() => extractBearerToken(post({ access_token: [TOKEN, TOKEN] }))).toThrow(invalidRequest('parameter access_token must not be repeated'));
  });

  it('refuses an empty access_token body parameter', () => {
    expect(() => extractBearerToken(post({ access_token: '' }))).toThrow(invalidRequest('parameter access_token is empty'));
  });

  it('refuses an access_token body parameter longer than a body may be', () => {
    expect(() => extractBearerToken(post({ access_token: 'a'.repeat(MAX_BODY_BYTES + 1) }))).toThrow(invalidRequest('parameter access_token is too long'));
  });

  it('reads an access_token longer than other parameters may be, for the validator to refuse as invalid_token', () => {
    const long = 'a'.repeat(17 * 1024);
    expect(extractBearerToken(post({ access_token: long, other: ['x', 'y'] }))).toBe(long);
  });

  it('refuses a malformed header even when the body carries a token', () => {
    expect(() => extractBearerToken(post({ access_token: TOKEN }, { authorization: 'Bearer', 'content-type': FORM }))).toThrow(
      invalidRequest('the Bearer authorization header carries no token'),
    );
  });

  it('returns undefined when neither the header nor a form body carries a token', () => {
    expect(extractBearerToken(get())).toBeUndefined();
    expect(extractBearerToken(post({ scope: 'openid' }))).toBeUndefined();
    expect(extractBearerToken(post(undefined, {}))).toBeUndefined();
  });

  it('ignores access_token in the body of a GET (RFC 6750 §2.2: only with a body-carrying method)', () => {
    expect(extractBearerToken({ method: 'GET', headers: { 'content-type': FORM }, body: { access_token: TOKEN } })).toBeUndefined();
  });

  it('ignores access_token in a body that is not form-encoded', () => {
    expect(extractBearerToken(post({ access_token: TOKEN }, { 'content-type': 'application/json' }))).toBeUndefined();
  });

  it('reads the token from the Authorization header', () => {
    expect(extractBearerToken(get(`Bearer ${TOKEN}`))).toBe(TOKEN);
  });

  it('reads the token from a form-encoded POST body, whatever the media type parameters', () => {
    expect(extractBearerToken(post({ access_token: TOKEN }, { 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' }))).toBe(TOKEN);
  });

  it('uses the body token when the header holds another scheme', () => {
    const basic = `Basic ${Buffer.from('a:b').toString('base64')}`;
    expect(extractBearerToken(post({ access_token: TOKEN }, { authorization: basic, 'content-type': FORM }))).toBe(TOKEN);
  });
});

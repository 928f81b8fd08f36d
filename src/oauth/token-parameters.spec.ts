import { readTokenParameters } from './token-parameters';

describe('readTokenParameters', () => {
  it.each([
    ['no token', {}],
    ['an empty token', { token: '' }],
  ])('refuses %s as invalid_request', (_, body) => {
    expect(() => readTokenParameters(body)).toThrow(expect.objectContaining({ code: 'invalid_request', description: 'token is required' }));
  });

  it.each([
    ['token', { token: ['a', 'b'] }],
    ['token_type_hint', { token: 'a', token_type_hint: ['access_token', 'refresh_token'] }],
  ])('refuses %s sent twice as invalid_request', (_, body) => {
    expect(() => readTokenParameters(body)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('reads a token longer than other parameters may be, for the endpoint to answer as unknown', () => {
    const token = 'a'.repeat(17 * 1024);
    expect(readTokenParameters({ token })).toEqual({ token, tokenTypeHint: undefined });
  });

  it('reads the token and the hint', () => {
    expect(readTokenParameters({ token: 'a', token_type_hint: 'refresh_token', client_id: 'x' })).toEqual({ token: 'a', tokenTypeHint: 'refresh_token' });
  });
});

import { MAX_BODY_BYTES } from './form';
import { readParameters } from './form-parameters';
import { TokenParameters } from './token-parameters';

const read = (body: Record<string, string | string[]>) => readParameters(TokenParameters, body, { error: 'invalid_request' });
const invalidRequest = (description: string) => expect.objectContaining({ code: 'invalid_request', status: 400, description });

describe('TokenParameters', () => {
  it.each([
    ['no token', {}],
    ['an empty token', { token: '' }],
  ])('refuses %s as invalid_request', (_, body) => {
    expect(() => read(body)).toThrow(invalidRequest('token is required'));
  });

  it.each([
    ['token', { token: ['a', 'b'] }],
    ['token_type_hint', { token: 'a', token_type_hint: ['access_token', 'refresh_token'] }],
  ])('refuses %s sent twice as invalid_request', (name, body) => {
    expect(() => read(body)).toThrow(invalidRequest(`parameter ${name} must not be repeated`));
  });

  it('refuses a token_type_hint longer than any parameter may be', () => {
    expect(() => read({ token: 'a', token_type_hint: 'h'.repeat(16 * 1024 + 1) })).toThrow(invalidRequest('parameter token_type_hint is too long'));
  });

  it('refuses a token longer than a body may be', () => {
    expect(() => read({ token: 'a'.repeat(MAX_BODY_BYTES + 1) })).toThrow(invalidRequest('parameter token is too long'));
  });

  it('reads a token longer than other parameters may be, for the endpoint to answer as unknown', () => {
    const token = 'a'.repeat(17 * 1024);
    expect(read({ token })).toEqual(Object.assign(new TokenParameters(), { token }));
  });

  it('reads the token and the hint, dropping other parameters', () => {
    const parameters = read({ token: 'a', token_type_hint: 'refresh_token', client_id: 'x' });
    expect(parameters).toBeInstanceOf(TokenParameters);
    expect({ ...parameters }).toEqual({ token: 'a', token_type_hint: 'refresh_token' });
  });
});

import { parseBasicCredentials } from './basic-credentials';

const basic = (raw: string, scheme = 'Basic') => `${scheme} ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('parseBasicCredentials', () => {
  it.each([
    ['no colon', basic('frontend')],
    ['an empty client id', basic(':secret')],
    ['no credentials after the scheme', 'Basic'],
    ['characters outside base64', 'Basic !!not-base64!!'],
    ['a broken percent-encoding', basic('front%ZZend:secret')],
    ['a percent-encoding that is not UTF-8', basic('frontend:%FF')],
    ['a NUL in the client id', basic('front\u0000end:secret')],
    ['a percent-encoded NUL in the secret', basic('frontend:sec%00ret')],
  ])('refuses a header with %s as invalid_client with a Basic challenge', (_, header) => {
    expect(() => parseBasicCredentials(header)).toThrow(
      expect.objectContaining({
        code: 'invalid_client',
        status: 401,
        description: 'malformed Basic authorization header',
        options: { challenge: 'Basic' },
      }),
    );
  });

  it.each([
    ['no header', undefined],
    ['the Bearer scheme', 'Bearer abc.def.ghi'],
    ['a scheme that only starts with Basic', `Basicx ${Buffer.from('a:b').toString('base64')}`],
  ])('returns undefined for %s', (_, header) => {
    expect(parseBasicCredentials(header)).toBeUndefined();
  });

  it('decodes a plain client id and secret', () => {
    expect(parseBasicCredentials(basic('frontend:frontend-secret'))).toEqual({
      clientId: 'frontend',
      clientSecret: 'frontend-secret',
      method: 'client_secret_basic',
    });
  });

  it('accepts the scheme name in any case', () => {
    expect(parseBasicCredentials(basic('m2m:m2m-secret', 'bASIC'))?.clientId).toBe('m2m');
  });

  it('form-url-decodes both parts (RFC 6749 §2.3.1): + is a space, %3A a colon in the id', () => {
    expect(parseBasicCredentials(basic('my%3Aclient+id:p%40ss+word%2B'))).toEqual({
      clientId: 'my:client id',
      clientSecret: 'p@ss word+',
      method: 'client_secret_basic',
    });
  });

  it('splits at the first colon, so the secret may contain colons', () => {
    expect(parseBasicCredentials(basic('api1:a:b:c'))?.clientSecret).toBe('a:b:c');
  });

  it('accepts an empty secret, which the verifier then rejects', () => {
    expect(parseBasicCredentials(basic('api1:'))?.clientSecret).toBe('');
  });

  it('decodes UTF-8 percent-encodings', () => {
    expect(parseBasicCredentials(basic('caf%C3%A9:s'))?.clientId).toBe('café');
  });
});

import { hasNulCharacter, MAX_PARAMETER_LENGTH, pickParameters, singleParameter, type FormBody } from './form';

const invalidRequest = (description: string) => expect.objectContaining({ code: 'invalid_request', status: 400, description });
const tooLong = 'x'.repeat(MAX_PARAMETER_LENGTH + 1);

describe('singleParameter', () => {
  it('refuses a repeated parameter as invalid_request', () => {
    expect(() => singleParameter({ scope: ['a', 'b'] }, 'scope')).toThrow(invalidRequest('parameter scope must not be repeated'));
  });

  it('refuses a parameter longer than 16 KiB as invalid_request', () => {
    expect(() => singleParameter({ token: tooLong }, 'token')).toThrow(invalidRequest('parameter token is too long'));
  });

  it('returns a value of exactly 16 KiB', () => {
    expect(singleParameter({ token: 'x'.repeat(MAX_PARAMETER_LENGTH) }, 'token')).toHaveLength(MAX_PARAMETER_LENGTH);
  });

  it('returns undefined for an absent parameter, and an empty value as it is', () => {
    expect(singleParameter({ scope: '' }, 'username')).toBeUndefined();
    expect(singleParameter({ scope: '' }, 'scope')).toBe('');
  });

  it('never reads inherited properties such as constructor or __proto__', () => {
    expect(singleParameter({}, 'constructor')).toBeUndefined();
    expect(singleParameter({}, '__proto__')).toBeUndefined();
    expect(singleParameter({}, 'toString')).toBeUndefined();
  });
});

describe('pickParameters', () => {
  it('refuses a repeated parameter that is not repeatable', () => {
    expect(() => pickParameters({ token: ['a', 'b'] }, ['token'])).toThrow(invalidRequest('parameter token must not be repeated'));
  });

  it('refuses a too long value of a repeatable parameter', () => {
    expect(() => pickParameters({ audience: ['ok', tooLong] }, ['audience'], new Set(['audience']))).toThrow(invalidRequest('parameter audience is too long'));
  });

  it('allows a parameter named in longer up to its length, and no further', () => {
    const longer = new Map([['token', MAX_PARAMETER_LENGTH + 1]]);
    expect({ ...pickParameters({ token: tooLong }, ['token'], new Set(), longer) }).toEqual({ token: tooLong });
    expect(() => pickParameters({ token: `${tooLong}x` }, ['token'], new Set(), longer)).toThrow(invalidRequest('parameter token is too long'));
  });

  it('keeps only declared parameters and ignores repetition of undeclared ones', () => {
    const body: FormBody = { token: 't', client_secret: 's', extra: ['1', '2'] };
    expect({ ...pickParameters(body, ['token', 'absent']) }).toEqual({ token: 't' });
  });

  it('returns repeatable parameters as arrays, even when given once', () => {
    const body: FormBody = { audience: ['api1', 'api2'], resource: 'https://r' };
    expect({ ...pickParameters(body, ['audience', 'resource'], new Set(['audience', 'resource'])) }).toEqual({
      audience: ['api1', 'api2'],
      resource: ['https://r'],
    });
  });

  it('treats __proto__ and constructor as ordinary names without touching any prototype', () => {
    const body: FormBody = JSON.parse('{"__proto__": "evil", "constructor": "c"}');
    const picked = pickParameters(body, ['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(picked)).toBeNull();
    expect(Object.entries(picked)).toEqual([
      ['__proto__', 'evil'],
      ['constructor', 'c'],
    ]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe('hasNulCharacter', () => {
  it('finds a NUL in a single or a repeated value', () => {
    expect(hasNulCharacter({ grant_type: 'password', username: 'al\u0000ice' })).toBe(true);
    expect(hasNulCharacter({ audience: ['api1', '\u0000'] })).toBe(true);
  });

  it('finds none in ordinary values, names aside', () => {
    expect(hasNulCharacter({ grant_type: 'password', scope: ['a', 'b'], '\u0000': 'x' })).toBe(false);
  });
});

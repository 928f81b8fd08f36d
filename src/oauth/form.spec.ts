import { MAX_PARAMETER_LENGTH, pickParameters, singleParameter, type FormBody } from './form';
import { OAuthError } from './oauth-error';

function errorOf(action: () => unknown): OAuthError {
  try {
    action();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('expected an OAuthError');
}

const tooLong = 'x'.repeat(MAX_PARAMETER_LENGTH + 1);

describe('singleParameter', () => {
  it('refuses a repeated parameter as invalid_request', () => {
    const error = errorOf(() => singleParameter({ scope: ['a', 'b'] }, 'scope'));
    expect([error.code, error.status, error.description]).toEqual(['invalid_request', 400, 'parameter scope must not be repeated']);
  });

  it('refuses a parameter longer than 16 KiB as invalid_request', () => {
    const error = errorOf(() => singleParameter({ token: tooLong }, 'token'));
    expect([error.code, error.description]).toEqual(['invalid_request', 'parameter token is too long']);
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
    const error = errorOf(() => pickParameters({ token: ['a', 'b'] }, ['token']));
    expect([error.code, error.description]).toEqual(['invalid_request', 'parameter token must not be repeated']);
  });

  it('refuses a too long value of a repeatable parameter', () => {
    const error = errorOf(() => pickParameters({ audience: ['ok', tooLong] }, ['audience'], new Set(['audience'])));
    expect([error.code, error.description]).toEqual(['invalid_request', 'parameter audience is too long']);
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
    expect(({} as Record<string, unknown>).evil).toBeUndefined();
  });
});

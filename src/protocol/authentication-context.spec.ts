import { acrOf, meetsAcr, meetsRequirement, PASSKEY_METHODS, PASSWORD_METHODS, weakestAcceptable } from './authentication-context';

describe('acrOf', () => {
  it('has no acr for tokens that record no sign-in of ours', () => {
    expect(acrOf(undefined)).toBeUndefined();
    expect(acrOf(['delegation'])).toBeUndefined();
    expect(acrOf(['urn:ietf:params:oauth:grant-type:jwt-bearer'])).toBeUndefined();
    expect(acrOf(['hwk'])).toBeUndefined();
  });

  it('is pwd for a password sign-in and phr for a passkey sign-in', () => {
    expect(acrOf(PASSWORD_METHODS)).toBe('pwd');
    expect(acrOf(PASSKEY_METHODS)).toBe('phr');
    expect(acrOf(['user', 'hwk'])).toBe('phr');
  });
});

describe('meetsAcr', () => {
  it('refuses no context and a weaker one', () => {
    expect(meetsAcr(undefined, 'pwd')).toBe(false);
    expect(meetsAcr('pwd', 'phr')).toBe(false);
  });

  it('accepts the same context and a stronger one', () => {
    expect(meetsAcr('pwd', 'pwd')).toBe(true);
    expect(meetsAcr('phr', 'phr')).toBe(true);
    expect(meetsAcr('phr', 'pwd')).toBe(true);
  });
});

describe('meetsRequirement', () => {
  it('is met by any sign-in when nothing is asked', () => {
    expect(meetsRequirement(undefined, undefined)).toBe(true);
    expect(meetsRequirement('pwd', undefined)).toBe(true);
  });

  it('is met when any one of the values is met', () => {
    expect(meetsRequirement('pwd', ['phr'])).toBe(false);
    expect(meetsRequirement('pwd', ['phr', 'pwd'])).toBe(true);
    expect(meetsRequirement('phr', ['pwd'])).toBe(true);
  });
});

describe('weakestAcceptable', () => {
  it('names the context a sign-in must reach', () => {
    expect(weakestAcceptable(['phr'])).toBe('phr');
    expect(weakestAcceptable(['phr', 'pwd'])).toBe('pwd');
  });
});

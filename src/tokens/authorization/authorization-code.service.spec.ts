import { isCodeVerifier, verifiesChallenge } from './authorization-code.service';

describe('verifiesChallenge', () => {
  it('refuses a verifier whose S256 is not the challenge', () => {
    expect(verifiesChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXl', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifiesChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'short')).toBe(false);
  });

  it('accepts the verifier of RFC 7636 Appendix B', () => {
    expect(verifiesChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });
});

describe('isCodeVerifier', () => {
  it('refuses fewer than 43 or more than 128 characters, and characters outside the unreserved set', () => {
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
  });

  it('accepts 43 to 128 unreserved characters', () => {
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier(`${'A1-._~'.repeat(21)}ab`)).toBe(true);
  });
});

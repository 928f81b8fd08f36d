import { csrfToken, isCsrfTokenValid } from './csrf';

const token = 'A'.repeat(43);

describe('csrfToken', () => {
  it('makes a fresh random token when the browser has none or a malformed one', () => {
    const first = csrfToken(undefined);
    expect(first.fresh).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrfToken(undefined).token).not.toBe(first.token);
    expect(csrfToken('tollgate.csrf=short').fresh).toBe(true);
  });

  it('keeps the token of the cookie', () => {
    expect(csrfToken(`a=b; tollgate.csrf=${token}`)).toEqual({ token, fresh: false });
  });
});

describe('isCsrfTokenValid', () => {
  it('refuses a missing cookie, a missing or repeated field, and a different value', () => {
    expect(isCsrfTokenValid(undefined, token)).toBe(false);
    expect(isCsrfTokenValid(`tollgate.csrf=${token}`, undefined)).toBe(false);
    expect(isCsrfTokenValid(`tollgate.csrf=${token}`, [token, token])).toBe(false);
    expect(isCsrfTokenValid(`tollgate.csrf=${token}`, 'B'.repeat(43))).toBe(false);
  });

  it("accepts the cookie's value", () => {
    expect(isCsrfTokenValid(`tollgate.csrf=${token}`, token)).toBe(true);
  });
});

import { hasStandardClaimType } from './standard-claims';

describe('hasStandardClaimType', () => {
  it.each([
    ['name', { first: 'A' }],
    ['name', 42],
    ['email', 42],
    ['email', ['a@example.com']],
    ['email_verified', 'yes'],
    ['email_verified', 'true'],
    ['phone_number_verified', 1],
    ['updated_at', '2026-01-01'],
    ['updated_at', Infinity],
    ['address', 'Main Street 1'],
    ['address', ['NL']],
    ['address', { country: 'NL', postal_code: 2611 }],
    ['role', 'admin'],
    ['role', ['admin', 1]],
    ['sub', 1],
  ])('refuses %s = %j', (claim, value) => {
    expect(hasStandardClaimType(claim, value)).toBe(false);
  });

  it.each([
    ['name', 'Alice'],
    ['locale', 'nl-NL'],
    ['email_verified', false],
    ['phone_number_verified', true],
    ['updated_at', 1767225600],
    ['address', { country: 'NL', locality: 'Delft' }],
    ['role', ['admin']],
  ])('accepts %s = %j', (claim, value) => {
    expect(hasStandardClaimType(claim, value)).toBe(true);
  });

  it('does not judge claims OIDC Core §5.1 does not define', () => {
    expect(hasStandardClaimType('department', { id: 7 })).toBe(true);
    expect(hasStandardClaimType('__proto__', 1)).toBe(true);
  });
});

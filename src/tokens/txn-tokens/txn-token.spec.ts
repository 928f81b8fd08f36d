import { subjectTokenRefusal } from './txn-token';

describe('subjectTokenRefusal', () => {
  const now = 1_900_000_000;
  const revoked = (jwtId: string) => jwtId === 'revoked-jti';

  it('refuses a subject token that has expired, at its exp and after', () => {
    expect(subjectTokenRefusal({ expiresAt: now, jwtId: 'jti' }, now, revoked)).toBe('the subject token of the transaction has expired');
    expect(subjectTokenRefusal({ expiresAt: now - 30 }, now, revoked)).toBe('the subject token of the transaction has expired');
  });

  it('refuses a subject token whose jti is on the deny list', () => {
    expect(subjectTokenRefusal({ expiresAt: now + 60, jwtId: 'revoked-jti' }, now, revoked)).toBe('the subject token of the transaction has been revoked');
  });

  it('allows an unexpired subject token that is not revoked, or has no jti to revoke', () => {
    expect(subjectTokenRefusal({ expiresAt: now + 1, jwtId: 'jti' }, now, revoked)).toBeUndefined();
    expect(subjectTokenRefusal({ expiresAt: now + 1 }, now, revoked)).toBeUndefined();
  });
});

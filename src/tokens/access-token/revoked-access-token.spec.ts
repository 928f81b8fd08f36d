import { RevokedJwtIds } from './revoked-access-token';

describe('RevokedJwtIds', () => {
  it('ignores tokens that expired longer ago than the grace period', () => {
    const revoked = new RevokedJwtIds(120);
    revoked.add([{ jwtId: 'old', expiresAt: 1000 }], 1120);
    expect(revoked.has('old')).toBe(false);
    expect(revoked.size).toBe(0);
  });

  it('keeps a token through the grace period after its expiry', () => {
    const revoked = new RevokedJwtIds(120);
    revoked.add([{ jwtId: 'a', expiresAt: 1000 }], 990);
    revoked.prune(1119);
    expect(revoked.has('a')).toBe(true);
    revoked.prune(1120);
    expect(revoked.has('a')).toBe(false);
  });

  it('answers only for the jti values added', () => {
    const revoked = new RevokedJwtIds(0);
    revoked.add(
      [
        { jwtId: 'a', expiresAt: 2000 },
        { jwtId: 'b', expiresAt: 2000 },
      ],
      1000,
    );
    expect([revoked.has('a'), revoked.has('b'), revoked.has('c')]).toEqual([true, true, false]);
  });

  it('counts a token added twice once', () => {
    const revoked = new RevokedJwtIds(0);
    revoked.add([{ jwtId: 'a', expiresAt: 2000 }], 1000);
    revoked.add([{ jwtId: 'a', expiresAt: 2000 }], 1000);
    expect(revoked.size).toBe(1);
  });
});

import { createHash } from 'node:crypto';
import {
  CONCURRENT_USE_GRACE_MS,
  generateRefreshTokenHandle,
  hashRefreshTokenHandle,
  isConcurrentUse,
  isRefreshTokenHandle,
  refreshTokenState,
  type RefreshToken,
} from './refresh-token';

const now = new Date('2030-01-01T00:00:00Z');
const token: RefreshToken = {
  tokenHash: 'h',
  familyId: 'f',
  subject: '1',
  clientId: 'frontend',
  scopes: ['openid', 'offline_access'],
  resources: [],
  authTime: 1_893_456_000,
  authenticationMethods: ['pwd'],
  createdAt: new Date('2029-12-31T00:00:00Z'),
  expiresAt: new Date('2030-01-02T00:00:00Z'),
};

describe('isRefreshTokenHandle', () => {
  it.each([
    ['a JWT', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln'],
    ['an empty string', ''],
    ['42 characters', 'a'.repeat(42)],
    ['44 characters', 'a'.repeat(44)],
    ['standard base64 characters', `${'a'.repeat(41)}+/`],
    ['padding', `${'a'.repeat(42)}=`],
  ])('refuses %s', (_, value) => {
    expect(isRefreshTokenHandle(value)).toBe(false);
  });

  it('accepts 43 base64url characters', () => {
    expect(isRefreshTokenHandle(`${'a'.repeat(41)}-_`)).toBe(true);
  });
});

describe('generateRefreshTokenHandle', () => {
  it('makes distinct handles of 32 random bytes in base64url', () => {
    const handles = new Set(Array.from({ length: 100 }, generateRefreshTokenHandle));
    expect(handles.size).toBe(100);
    for (const handle of handles) {
      expect(isRefreshTokenHandle(handle)).toBe(true);
      expect(Buffer.from(handle, 'base64url')).toHaveLength(32);
    }
  });
});

describe('hashRefreshTokenHandle', () => {
  it('is the SHA-256 of the handle in base64url, never the handle itself', () => {
    const handle = generateRefreshTokenHandle();
    const hash = hashRefreshTokenHandle(handle);
    expect(hash).toBe(createHash('sha256').update(handle).digest('base64url'));
    expect(hash).not.toContain(handle);
    expect(hashRefreshTokenHandle(handle)).toBe(hash);
  });
});

describe('refreshTokenState', () => {
  it('is revoked when revoked, even if also consumed and expired', () => {
    const revoked = { ...token, revokedAt: now, consumedAt: now, expiresAt: new Date(0) };
    expect(refreshTokenState(revoked, now)).toBe('revoked');
  });

  it('is consumed when used and not revoked, even after expiry', () => {
    expect(refreshTokenState({ ...token, consumedAt: now, expiresAt: new Date(0) }, now)).toBe('consumed');
  });

  it('is expired from the instant of expiry', () => {
    expect(refreshTokenState({ ...token, expiresAt: now }, now)).toBe('expired');
  });

  it('is active otherwise', () => {
    expect(refreshTokenState(token, now)).toBe('active');
  });
});

describe('isConcurrentUse', () => {
  const consumedAt = new Date('2026-01-01T00:00:00Z');

  it('is false for a token never used', () => {
    expect(isConcurrentUse({}, consumedAt.getTime())).toBe(false);
  });

  it('is false for a request that arrived once the grace window after the use had passed', () => {
    expect(isConcurrentUse({ consumedAt }, consumedAt.getTime() + CONCURRENT_USE_GRACE_MS)).toBe(false);
    expect(isConcurrentUse({ consumedAt }, consumedAt.getTime() + 60_000)).toBe(false);
  });

  it('is true for a request that arrived before the use, or within the grace window after it', () => {
    expect(isConcurrentUse({ consumedAt }, consumedAt.getTime() - 50)).toBe(true);
    expect(isConcurrentUse({ consumedAt }, consumedAt.getTime() + 10)).toBe(true);
    expect(isConcurrentUse({ consumedAt }, consumedAt.getTime() + CONCURRENT_USE_GRACE_MS - 1)).toBe(true);
  });
});

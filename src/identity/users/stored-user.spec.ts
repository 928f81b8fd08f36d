import { readStoredUser, type StoredUserRow } from './stored-user';

const UPDATED_AT = new Date('2026-01-01T00:00:00Z');

function row(overrides: Partial<StoredUserRow> = {}): StoredUserRow {
  return {
    subject_id: '7',
    username: 'carol',
    password_hash: 'hash',
    enabled: true,
    claims: { name: 'Carol' },
    roles: ['user'],
    updated_at: UPDATED_AT,
    ...overrides,
  };
}

describe('readStoredUser', () => {
  it.each([
    ['null', null],
    ['a string', 'Carol'],
    ['an array', ['Carol']],
    ['a number', 42],
  ])('reads claims that are %s as no claims, and reports them', (_shape, claims) => {
    const { user, skipped } = readStoredUser(row({ claims }));
    expect(user.claims).toEqual({});
    expect(skipped).toEqual(['claims']);
  });

  it('keeps the valid claims of an object and skips values no claim can have', () => {
    const { user, skipped } = readStoredUser(
      row({ claims: { name: 'Carol', email_verified: true, nested: [[1]], age: Number.NaN, address: { locality: 'X' }, nickname: null } }),
    );
    expect(user.claims).toEqual({ name: 'Carol', email_verified: true, address: { locality: 'X' } });
    expect(skipped).toEqual(['claims.nested', 'claims.age']);
  });

  it.each([
    ['infinity', Number.POSITIVE_INFINITY],
    ['-infinity', Number.NEGATIVE_INFINITY],
    ['an invalid date', new Date(Number.NaN)],
    ['a string', '2026-01-01'],
  ])('leaves out an updated_at of %s', (_shape, updatedAt) => {
    const { user, skipped } = readStoredUser(row({ updated_at: updatedAt }));
    expect(user.updatedAt).toBeUndefined();
    expect(skipped).toEqual(['updated_at']);
  });

  it('keeps only the non-empty string roles of a list with nulls, nested lists and empty strings', () => {
    const { user, skipped } = readStoredUser(row({ roles: ['admin', null, [['nested', null]], '', 'user', 'admin'] }));
    expect(user.roles).toEqual(['admin', 'nested', 'user']);
    expect(skipped).toEqual(['roles (entries)']);
  });

  it('reads roles that are null as no roles', () => {
    expect(readStoredUser(row({ roles: null })).user.roles).toEqual([]);
  });

  it('reports nothing for a well-formed row', () => {
    const { user, skipped } = readStoredUser(row());
    expect(user).toEqual({
      subjectId: '7',
      username: 'carol',
      passwordHash: 'hash',
      enabled: true,
      claims: { name: 'Carol' },
      roles: ['user'],
      updatedAt: UPDATED_AT,
    });
    expect(skipped).toEqual([]);
  });
});

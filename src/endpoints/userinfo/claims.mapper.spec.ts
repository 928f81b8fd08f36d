import { DEMO_IDENTITY_RESOURCES } from '../../demo/demo-data';
import { ResourceCatalog } from '../../identity/resources/resource-catalog';
import type { User } from '../../identity/users/user';
import { mapUserInfoClaims } from './claims.mapper';

const catalog = new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: [{ name: 'api1', scopes: ['api1'] }] });
const UPDATED_AT = new Date('2026-01-01T00:00:00Z');

function user(overrides: Partial<User> = {}): User {
  return {
    subjectId: '1',
    username: 'alice',
    passwordHash: 'scrypt$…',
    enabled: true,
    claims: { name: 'Alice Smith', given_name: 'Alice', family_name: 'Smith', preferred_username: 'alice', email: 'alice@example.com', email_verified: true },
    roles: ['admin', 'user'],
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

describe('mapUserInfoClaims', () => {
  it('omits a claim the user does not have, and one stored as null or an empty string', () => {
    const claims = mapUserInfoClaims(user({ claims: { name: 'Alice Smith', nickname: null, locale: '' } }), ['openid', 'profile', 'email'], catalog);
    expect(claims).toEqual({ sub: '1', name: 'Alice Smith', updated_at: 1767225600 });
  });

  it('omits role when the user has no roles', () => {
    expect(mapUserInfoClaims(user({ roles: [] }), ['openid', 'role'], catalog)).toEqual({ sub: '1' });
  });

  it('ignores stored claims that no granted scope maps to', () => {
    expect(mapUserInfoClaims(user({ claims: { email: 'alice@example.com', secret_note: 'x' } }), ['openid'], catalog)).toEqual({ sub: '1' });
  });

  it('ignores scopes that are not identity resources', () => {
    expect(mapUserInfoClaims(user(), ['openid', 'api1', 'offline_access', 'unknown'], catalog)).toEqual({ sub: '1' });
  });

  it('never takes sub or role from the stored claims', () => {
    const claims = mapUserInfoClaims(user({ claims: { sub: 'forged', role: 'root' } }), ['openid', 'role'], catalog);
    expect(claims).toEqual({ sub: '1', role: ['admin', 'user'] });
  });

  it('returns sub even without the openid scope in the list', () => {
    expect(mapUserInfoClaims(user(), [], catalog)).toEqual({ sub: '1' });
  });

  it('maps openid profile email role to the claims of docs/endpoints.md#userinfo', () => {
    expect(mapUserInfoClaims(user(), ['openid', 'profile', 'email', 'role'], catalog)).toEqual({
      sub: '1',
      name: 'Alice Smith',
      given_name: 'Alice',
      family_name: 'Smith',
      preferred_username: 'alice',
      updated_at: 1767225600,
      email: 'alice@example.com',
      email_verified: true,
      role: ['admin', 'user'],
    });
  });

  it('returns a single role as an array', () => {
    expect(mapUserInfoClaims(user({ roles: ['user'] }), ['openid', 'role'], catalog).role).toEqual(['user']);
  });

  it('writes updated_at as whole epoch seconds (OIDC Core §5.1)', () => {
    const claims = mapUserInfoClaims(user({ updatedAt: new Date('2026-03-04T05:06:07.890Z') }), ['profile'], catalog);
    expect(claims.updated_at).toBe(Date.UTC(2026, 2, 4, 5, 6, 7) / 1000);
  });

  it('passes other OIDC Core §5.4 profile claims and structured values through as stored', () => {
    const stored = { nickname: 'Al', birthdate: '1990-01-01', address: { country: 'NL' } };
    const resources = new ResourceCatalog({
      identityResources: [...DEMO_IDENTITY_RESOURCES, { name: 'address', claimTypes: ['address'] }],
      apiResources: [],
    });
    expect(mapUserInfoClaims(user({ claims: stored }), ['profile', 'address'], resources)).toEqual({
      sub: '1',
      nickname: 'Al',
      birthdate: '1990-01-01',
      updated_at: 1767225600,
      address: { country: 'NL' },
    });
  });

  it('leaves out standard claims of another type than OIDC Core §5.1 defines, naming each to leftOut', () => {
    const stored = { name: { first: 'Mallory' }, given_name: 'Mallory', email: 42, email_verified: 'yes' };
    const leftOut: string[] = [];
    const claims = mapUserInfoClaims(user({ claims: stored }), ['openid', 'profile', 'email'], catalog, (claim) => leftOut.push(claim));
    expect(claims).toEqual({ sub: '1', given_name: 'Mallory', updated_at: 1767225600 });
    expect(leftOut).toEqual(['name', 'email', 'email_verified']);
  });

  it('passes claims OIDC Core §5.1 does not define through as stored', () => {
    const resources = { identityResource: () => ({ name: 'hr', claimTypes: ['department'] }) };
    expect(mapUserInfoClaims(user({ claims: { department: { id: 7 } } }), ['hr'], resources)).toEqual({ sub: '1', department: { id: 7 } });
  });

  it('does not let a claim type named __proto__ touch the prototype', () => {
    const resources = { identityResource: () => ({ name: 'odd', claimTypes: ['__proto__', 'constructor'] }) };
    const claims = mapUserInfoClaims(user({ claims: JSON.parse('{"__proto__": {"polluted": true}}') }), ['odd'], resources);
    expect(claims).toEqual({ sub: '1' });
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
  });

  it("returns a copy of the roles, not the user's own array", () => {
    const roles = ['user'];
    const claims = mapUserInfoClaims(user({ roles }), ['role'], catalog);
    expect(claims.role).not.toBe(roles);
  });
});

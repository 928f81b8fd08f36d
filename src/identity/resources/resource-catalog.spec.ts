import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../../demo/demo-data';
import { ResourceCatalog } from './resource-catalog';

const demo = new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: DEMO_API_RESOURCES });

describe('ResourceCatalog', () => {
  describe('isKnownScope', () => {
    it('knows identity scopes, API scopes and offline_access, and nothing else', () => {
      const scopes = ['openid', 'role', 'api1', 'api2', 'offline_access', 'api3', 'api4', 'sub', 'OPENID', 'toString'];
      expect(scopes.filter((scope) => demo.isKnownScope(scope))).toEqual(['openid', 'role', 'api1', 'api2', 'offline_access', 'api3']);
    });
  });

  describe('isIdentityScope', () => {
    it('is true for identity resources only', () => {
      const scopes = ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'];
      expect(scopes.filter((scope) => demo.isIdentityScope(scope))).toEqual(['openid', 'profile', 'email', 'role']);
    });
  });

  describe('identityResource', () => {
    it('returns the claim types of an identity scope, undefined for other scopes', () => {
      expect(demo.identityResource('email')).toEqual({ name: 'email', claimTypes: ['email', 'email_verified'] });
      expect(demo.identityResource('api1')).toBeUndefined();
    });
  });

  describe('audiencesFor', () => {
    it('has no audience for identity scopes and offline_access', () => {
      expect(demo.audiencesFor(['openid', 'profile', 'offline_access'])).toEqual([]);
    });

    it('names the API resources of the scopes once each', () => {
      expect(demo.audiencesFor(['openid', 'api2', 'api1', 'api2'])).toEqual(['api2', 'api1']);
    });

    it('names every API resource that shares a scope', () => {
      const shared = new ResourceCatalog({
        identityResources: [],
        apiResources: [
          { name: 'orders', scopes: ['orders.read', 'shop.read'] },
          { name: 'billing', scopes: ['billing.pay', 'shop.read'] },
        ],
      });
      expect(shared.audiencesFor(['shop.read'])).toEqual(['orders', 'billing']);
      expect(shared.audiencesFor(['billing.pay', 'orders.read'])).toEqual(['billing', 'orders']);
    });

    it('names only the resources opened to self-registered clients for one of them, whatever scopes they share', () => {
      const shared = new ResourceCatalog({
        identityResources: [],
        apiResources: [
          { name: 'notes', scopes: ['notes.read'], openToSelfRegistered: true },
          { name: 'admin', scopes: ['notes.read', 'admin'] },
        ],
      });
      expect(shared.audiencesFor(['notes.read'])).toEqual(['notes', 'admin']);
      expect(shared.audiencesFor(['notes.read', 'admin'], true)).toEqual(['notes']);
    });
  });

  describe('isAddressedTo', () => {
    const catalog = new ResourceCatalog({
      identityResources: [],
      apiResources: [
        { name: 'orders', scopes: ['orders'], uri: 'https://orders.example/api', servingClientId: 'orders-api' },
        { name: 'billing', scopes: ['billing'], uri: 'https://billing.example/', servingClientId: 'billing-api' },
        { name: 'reports', scopes: ['reports'], uri: 'https://reports.example/' },
      ],
    });

    it('refuses a token whose aud names only resources served by another client, or by none', () => {
      expect(catalog.isAddressedTo(['billing', 'https://billing.example/'], 'orders-api')).toBe(false);
      expect(catalog.isAddressedTo(['reports', 'https://reports.example/'], 'orders-api')).toBe(false);
      expect(catalog.isAddressedTo([], 'orders-api')).toBe(false);
    });

    it('refuses near misses: another case, a trailing slash, a client that is not in the catalog', () => {
      expect(catalog.isAddressedTo(['Orders', 'https://orders.example/api/', 'ORDERS-API'], 'orders-api')).toBe(false);
      expect(catalog.isAddressedTo(['orders'], 'stranger')).toBe(false);
    });

    it("is addressed by the client's client_id, served resource or not", () => {
      expect(catalog.isAddressedTo(['billing', 'orders-api'], 'orders-api')).toBe(true);
      expect(catalog.isAddressedTo(['stranger'], 'stranger')).toBe(true);
    });

    it('is addressed by the name of a resource the client serves', () => {
      expect(catalog.isAddressedTo(['billing', 'orders'], 'orders-api')).toBe(true);
    });

    it('is addressed by the URI of a resource the client serves', () => {
      expect(catalog.isAddressedTo(['https://orders.example/api'], 'orders-api')).toBe(true);
      expect(catalog.isAddressedTo(['https://billing.example/'], 'billing-api')).toBe(true);
    });

    it('ties the demo APIs to the demo clients of the same name, api3 to none', () => {
      expect(['api1', 'api2', 'api3'].map((api) => demo.isAddressedTo([api], api === 'api3' ? 'api2' : api))).toEqual([true, true, false]);
    });
  });

  describe('scopesSupported', () => {
    it('lists identity scopes, API scopes, then offline_access', () => {
      expect(demo.scopesSupported()).toEqual(['openid', 'profile', 'email', 'role', 'api1', 'api2', 'api3', 'notes', 'offline_access']);
    });
  });

  describe('claimsSupported', () => {
    it('lists the claim types of all identity resources once each', () => {
      const catalog = new ResourceCatalog({
        identityResources: [
          { name: 'openid', claimTypes: ['sub'] },
          { name: 'email', claimTypes: ['email', 'email_verified'] },
          { name: 'contact', claimTypes: ['email', 'phone_number'] },
        ],
        apiResources: [],
      });
      expect(catalog.claimsSupported()).toEqual(['sub', 'email', 'email_verified', 'phone_number']);
    });

    it('covers the demo identity resources', () => {
      expect(demo.claimsSupported()).toEqual([
        'sub',
        'name',
        'family_name',
        'given_name',
        'middle_name',
        'nickname',
        'preferred_username',
        'profile',
        'picture',
        'website',
        'gender',
        'birthdate',
        'zoneinfo',
        'locale',
        'updated_at',
        'email',
        'email_verified',
        'role',
      ]);
    });
  });
});

import type { ClientView, ResourceView } from './inventory';
import { formatFields, formatTable, RESOURCE_TABLE, showClient, showResource } from './inventory-format';
import { InventoryUsageError, parseInventoryArguments } from './inventory.command';
import { keySummaries } from './inventory';

const CLIENT: ClientView = {
  clientId: 'webapp',
  clientName: 'Demo Web App',
  enabled: true,
  authentication: 'client_secret',
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'api1'],
  redirectUris: ['http://127.0.0.1:5174/callback'],
  postLogoutRedirectUris: [],
  requireConsent: true,
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 2592000,
  mayActClientId: null,
  transactionTokens: false,
  requirePushedAuthorizationRequests: false,
  requireDpop: true,
  requirePhr: false,
  jwksUri: null,
  jwks: null,
  workloadIdentities: [],
  backchannelLogoutUri: 'http://127.0.0.1:5174/backchannel-logout',
  backchannelLogoutSessionRequired: true,
  secrets: [
    { id: '0b7d2e41-0000-4000-8000-000000000001', description: 'demo secret', expiresAt: null, createdAt: '2026-11-25T00:00:00.000Z' },
    { id: '0b7d2e41-0000-4000-8000-000000000002', description: null, expiresAt: '2027-01-01T00:00:00.000Z', createdAt: '2026-11-25T00:00:00.000Z' },
  ],
  createdAt: '2026-11-25T00:00:00.000Z',
};

describe('formatTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      formatTable(
        ['ID', 'NAME'],
        [
          ['a', 'Alpha'],
          ['long-id', '-'],
        ],
      ),
    ).toBe('ID       NAME\na        Alpha\nlong-id  -\n');
  });

  it('shows control characters as ? so that a stored value cannot drive the terminal or break a row', () => {
    expect(formatTable(['NAME'], [['a\u001b[31mb\nc']])).toBe('NAME\na?[31mb?c\n');
  });
});

describe('formatFields', () => {
  it('aligns the names and continues a list on indented lines', () => {
    expect(
      formatFields([
        ['id', 'x'],
        ['secrets', ['one', 'two']],
        ['none', []],
      ]),
    ).toBe('id:      x\nsecrets: one\n  two\nnone:    -\n');
  });
});

describe('showClient', () => {
  it('shows the secrets by id, description and expiry, and a missing list or value as -', () => {
    const text = showClient(CLIENT);
    expect(text).toContain('client_name:               Demo Web App\n');
    expect(text).toContain('secrets:                   0b7d2e41-0000-4000-8000-000000000001 (demo secret; created 2026-11-25T00:00:00.000Z; no expiry)\n');
    expect(text).toContain('\n  0b7d2e41-0000-4000-8000-000000000002 (no description; created 2026-11-25T00:00:00.000Z; expires 2027-01-01T00:00:00.000Z)\n');
    expect(text).toContain('post-logout redirect URIs: -\n');
    expect(text).toContain('\nPAR required:              no\nDPoP required:             yes\npasskey sign-in required:  no\n');
    expect(showClient({ ...CLIENT, requirePhr: true })).toContain('\npasskey sign-in required:  yes\n');
    expect(text).toContain('back-channel logout:       http://127.0.0.1:5174/backchannel-logout (session required)\n');
    expect(showClient({ ...CLIENT, backchannelLogoutUri: null })).toContain('back-channel logout:       -\n');
  });
});

describe('resources', () => {
  const orders: ResourceView = {
    name: 'orders',
    kind: 'api',
    enabled: true,
    scopes: ['orders.read'],
    uri: 'https://orders.example/api',
    servedBy: 'orders-api',
    openToSelfRegistered: false,
    claims: [],
  };
  const email: ResourceView = {
    name: 'email',
    kind: 'identity',
    enabled: true,
    scopes: ['email'],
    uri: null,
    servedBy: null,
    openToSelfRegistered: true,
    claims: ['email'],
  };

  it('lists the resource URI and the serving client', () => {
    expect(formatTable(RESOURCE_TABLE.header, [orders, email].map(RESOURCE_TABLE.row))).toBe(
      'NAME    KIND      ENABLED  SCOPES       SERVED_BY   URI                         CLAIMS  SELF_REGISTERED\n' +
        'orders  api       yes      orders.read  orders-api  https://orders.example/api  -       closed\n' +
        'email   identity  yes      email        -           -                           email   -\n',
    );
  });

  it("shows an API resource's URI and serving client, and neither for an identity resource", () => {
    expect(showResource(orders)).toContain('resource URI:    https://orders.example/api\nserved by:       orders-api\nself-registered: closed\n');
    expect(showResource({ ...orders, uri: null, servedBy: null, openToSelfRegistered: true })).toContain(
      'resource URI:    -\nserved by:       - (the client whose id is the resource name)\nself-registered: open: self-registered clients may request its scopes\n',
    );
    expect(showResource(email)).not.toMatch(/resource URI|served by|self-registered/);
  });
});

describe('keySummaries', () => {
  it('keeps which key it is, never its material', () => {
    expect(keySummaries({ keys: [{ kty: 'RSA', kid: 'k1', alg: 'RS256', n: 'modulus', e: 'AQAB', d: 'private' }, { kty: 'EC' }] })).toEqual([
      { kid: 'k1', kty: 'RSA', alg: 'RS256' },
      { kid: null, kty: 'EC', alg: null },
    ]);
    expect(keySummaries(null)).toBeNull();
  });
});

describe('parseInventoryArguments', () => {
  it('refuses anything but list or show <id>', () => {
    expect(() => parseInventoryArguments('clients', [])).toThrow(InventoryUsageError);
    expect(() => parseInventoryArguments('clients', ['show'])).toThrow('show takes one id');
    expect(() => parseInventoryArguments('clients', ['list', 'extra'])).toThrow(InventoryUsageError);
    expect(() => parseInventoryArguments('clients', ['list', '--secrets'])).toThrow(InventoryUsageError);
  });

  it('reads list and show, with --json', () => {
    expect(parseInventoryArguments('users', ['list'])).toEqual({ noun: 'users', action: 'list', json: false });
    expect(parseInventoryArguments('issuers', ['show', 'https://idp.example', '--json'])).toEqual({
      noun: 'issuers',
      action: 'show',
      id: 'https://idp.example',
      json: true,
    });
    expect(parseInventoryArguments('clients', ['--help'])).toBeUndefined();
  });
});

import { continuedGrant } from './grant-continuation';
import type { GrantResult, GrantSuccess } from './grant-result';
import { RecordingAuditSink } from '../platform/audit/recording-audit.sink';
import type { Client } from '../identity/clients/client';
import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../demo/demo-data';
import type { RequestParameters } from '../protocol/form';
import type { RequestedScopes } from '../protocol/scope';
import { CONCURRENT_USE_GRACE_MS, type RefreshToken } from '../tokens/refresh-tokens/refresh-token';
import { submit, type GrantRequest } from './grant.fixtures';
import { ResourceCatalog } from '../identity/resources/resource-catalog';
import type { User } from '../identity/users/user';
import { RefreshTokenGrantValidator, type RefreshTokenLookup } from './refresh-token.grant-validator';

const resources = new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: DEMO_API_RESOURCES });
const frontend: Client = {
  clientId: 'frontend',
  enabled: true,
  allowedGrantTypes: ['password', 'refresh_token'],
  allowedScopes: ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 86_400,
  secrets: [],
  public: false,
  redirectUris: [],
  postLogoutRedirectUris: [],
  requireConsent: false,
};
const HANDLE = 'h'.repeat(43);
const stored: RefreshToken = {
  tokenHash: 'hash',
  familyId: 'family-1',
  subject: '1',
  clientId: 'frontend',
  scopes: ['openid', 'profile', 'api1', 'offline_access'],
  resources: [],
  authTime: 1_900_000_000,
  authenticationMethods: ['pwd'],
  createdAt: new Date(Date.now() - 60_000),
  expiresAt: new Date(Date.now() + 3_600_000),
};
const alice = { subjectId: '1', enabled: true } as User;

/** Fakes that record what the validator did to the store. */
/** `null` stands for "none stored". */
function setup({ token = stored as RefreshToken | null, user = alice as User | null } = {}) {
  const calls: string[] = [];
  const refreshTokens: RefreshTokenLookup = {
    find: async (handle: string) => (handle === HANDLE ? (token ?? undefined) : undefined),
    revokeFamily: async (familyId: string) => void calls.push(`revokeFamily ${familyId}`),
  };
  const users = { findBySubjectId: async (subject: string) => (subject === user?.subjectId ? user : undefined) };
  return { validator: new RefreshTokenGrantValidator(refreshTokens, users, new RecordingAuditSink()), calls };
}

function context(parameters: RequestParameters, scopes: RequestedScopes = { names: [], explicit: false }, client = frontend): GrantRequest {
  return { grantType: 'refresh_token', client, parameters, scopes, resources, clientAddress: '127.0.0.1' };
}

const rejection = (code: string, description: string) => expect.objectContaining({ code, status: 400, description });

/** What the grant's continuation hands the token endpoint. */
const rotated = (result: GrantResult) => continuedGrant((result as GrantSuccess).continuation);

describe('RefreshTokenGrantValidator', () => {
  it.each([
    ['missing', {}],
    ['empty', { refresh_token: '' }],
  ])('refuses a %s refresh_token as invalid_request', async (_, parameters) => {
    await expect(submit(setup().validator, context(parameters))).rejects.toEqual(rejection('invalid_request', 'refresh_token is required'));
  });

  describe('a DPoP-bound token (RFC 9449 §5)', () => {
    const bound = { ...stored, confirmation: { jkt: 'key-1' } };
    it.each([
      ['no proof', undefined],
      ['a proof of another key', { jkt: 'key-2' }],
    ])('refuses %s as invalid_dpop_proof', async (_, dpop) => {
      const { validator } = setup({ token: bound });
      await expect(submit(validator, { ...context({ refresh_token: HANDLE }), dpop })).rejects.toEqual(
        rejection('invalid_dpop_proof', 'the refresh token is bound to another DPoP key, or no proof was sent'),
      );
    });

    it('rotates it with a proof of its key', async () => {
      const { validator } = setup({ token: bound });
      await expect(submit(validator, { ...context({ refresh_token: HANDLE }), dpop: { jkt: 'key-1' } })).resolves.toMatchObject({ subject: '1' });
    });
  });

  it('refuses an unknown token as invalid_grant', async () => {
    const { validator, calls } = setup({ token: null });
    await expect(submit(validator, context({ refresh_token: HANDLE }))).rejects.toEqual(rejection('invalid_grant', 'the refresh token is invalid'));
    expect(calls).toEqual([]);
  });

  it("refuses another client's token as invalid_grant and leaves it untouched", async () => {
    const { validator, calls } = setup();
    const other = { ...frontend, clientId: 'other' };
    await expect(submit(validator, context({ refresh_token: HANDLE }, undefined, other))).rejects.toEqual(
      rejection('invalid_grant', 'the refresh token is invalid'),
    );
    expect(calls).toEqual([]);
  });

  it('refuses a token used up before the grace window and revokes its whole family (reuse detection)', async () => {
    const { validator, calls } = setup({ token: { ...stored, consumedAt: new Date(Date.now() - CONCURRENT_USE_GRACE_MS - 1000) } });
    await expect(submit(validator, context({ refresh_token: HANDLE }))).rejects.toEqual(rejection('invalid_grant', 'the refresh token has already been used'));
    expect(calls).toEqual(['revokeFamily family-1']);
  });

  it('refuses a token used up after this request arrived (a concurrent use) without revoking the family', async () => {
    const receivedAt = Date.now() - 50;
    const { validator, calls } = setup({ token: { ...stored, consumedAt: new Date(receivedAt + 10) } });
    await expect(submit(validator, { ...context({ refresh_token: HANDLE }), receivedAt })).rejects.toEqual(
      rejection('invalid_grant', 'the refresh token has already been used'),
    );
    expect(calls).toEqual([]);
  });

  it('refuses a token used up just before this request arrived, within the grace window, without revoking the family', async () => {
    const receivedAt = Date.now();
    const { validator, calls } = setup({ token: { ...stored, consumedAt: new Date(receivedAt - 1000) } });
    await expect(submit(validator, { ...context({ refresh_token: HANDLE }), receivedAt })).rejects.toEqual(
      rejection('invalid_grant', 'the refresh token has already been used'),
    );
    expect(calls).toEqual([]);
  });

  it.each<[string, Partial<RefreshToken>, string]>([
    ['revoked', { revokedAt: new Date() }, 'the refresh token has been revoked'],
    ['expired', { expiresAt: new Date(Date.now() - 1000) }, 'the refresh token has expired'],
  ])('refuses a %s token as invalid_grant without consuming it', async (_, state, description) => {
    const { validator, calls } = setup({ token: { ...stored, ...state } });
    await expect(submit(validator, context({ refresh_token: HANDLE }))).rejects.toEqual(rejection('invalid_grant', description));
    expect(calls).toEqual([]);
  });

  it('refuses a client that lost offline_access', async () => {
    const client = { ...frontend, allowedScopes: ['openid', 'profile', 'api1'] };
    await expect(submit(setup().validator, context({ refresh_token: HANDLE }, undefined, client))).rejects.toEqual(
      rejection('invalid_grant', 'the client may no longer use offline access'),
    );
  });

  it('refuses a widened scope as invalid_scope without consuming the token', async () => {
    const { validator, calls } = setup();
    await expect(submit(validator, context({ refresh_token: HANDLE }, { names: ['openid', 'email'], explicit: true }))).rejects.toEqual(
      rejection('invalid_scope', 'scope was not granted to the refresh token: email'),
    );
    expect(calls).toEqual([]);
  });

  it.each([
    ['disabled', { ...alice, enabled: false }],
    ['unknown', null],
  ])('refuses the token of a %s user without consuming it', async (_, user) => {
    const { validator, calls } = setup({ user });
    await expect(submit(validator, context({ refresh_token: HANDLE }))).rejects.toEqual(
      rejection('invalid_grant', 'the user of the refresh token is unknown or disabled'),
    );
    expect(calls).toEqual([]);
  });

  it('consumes nothing itself: the token endpoint uses the token up when it stores the successor', async () => {
    const { validator, calls } = setup();
    expect(rotated(await submit(validator, context({ refresh_token: HANDLE })))).toMatchObject({ kind: 'refresh_rotation', presented: stored });
    expect(calls).toEqual([]);
  });

  it('grants the original scope when none is requested, less what the client may no longer have', async () => {
    const client = { ...frontend, allowedScopes: ['openid', 'api1', 'offline_access'] };
    const rotation = await submit(setup().validator, context({ refresh_token: HANDLE }, undefined, client));
    expect(rotated(rotation)).toEqual({ kind: 'refresh_rotation', presented: stored, scopes: ['openid', 'api1', 'offline_access'] });
  });

  it('narrows to the requested scope; the presented token, which the family keeps, is returned unchanged', async () => {
    const { validator, calls } = setup();
    const rotation = await submit(validator, context({ refresh_token: HANDLE }, { names: ['api1'], explicit: true }));
    expect(calls).toEqual([]);
    expect(rotated(rotation)).toEqual({ kind: 'refresh_rotation', presented: stored, scopes: ['api1'] });
  });
});

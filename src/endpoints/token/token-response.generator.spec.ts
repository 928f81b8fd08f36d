import type { AccessTokenRequest, IssuedAccessToken } from '../../tokens/access-token/access-token.issuer';
import type { AuditEvent } from '../../platform/audit/audit-event';
import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import type { AuthorizationCode } from '../../tokens/authorization/authorization-code';
import type { Client } from '../../identity/clients/client';
import { testClient } from '../../grants/grant.fixtures';
import type { IdTokenRequest } from '../../tokens/id-token/id-token.issuer';
import type { RefreshToken, RefreshTokenFamily } from '../../tokens/refresh-tokens/refresh-token';
import type { IssuedGrant } from '../../tokens/refresh-tokens/refresh-token.service';
import { TokenResponseGenerator, type IssuingResult } from './token-response.generator';

const NOW = 1_900_000_000;
const client = testClient({ clientId: 'web', allowedGrantTypes: ['authorization_code', 'refresh_token'], refreshTokenLifetimeSeconds: 86_400 });

const code: AuthorizationCode = {
  codeHash: 'code-hash',
  clientId: 'web',
  redirectUri: 'https://web.example/cb',
  redirectUriSent: true,
  codeChallenge: 'challenge',
  nonce: 'n-1',
  scopes: ['openid', 'api1', 'offline_access'],
  resources: [],
  subject: 'alice',
  sessionId: 'sid-1',
  authTime: NOW - 100,
  authenticationMethods: ['pwd'],
  expiresAt: new Date(),
};

const presented: RefreshToken = {
  tokenHash: 'rt-hash',
  familyId: 'family-1',
  subject: 'alice',
  clientId: 'web',
  scopes: ['openid', 'api1', 'offline_access'],
  resources: [],
  authTime: NOW - 1000,
  authenticationMethods: [],
  sessionId: 'sid-1',
  createdAt: new Date(),
  expiresAt: new Date(NOW * 1000 + 86_400_000),
};

/** Fakes recording what the generator asked of each collaborator. */
function generator({ codeStillUnused = true, refreshToken = undefined as string | undefined } = {}) {
  const calls = {
    accessTokens: [] as AccessTokenRequest[],
    refreshTokens: [] as { grant: IssuedGrant; rotated?: RefreshTokenFamily }[],
    idTokens: [] as IdTokenRequest[],
    codes: [] as string[],
    revoked: [] as string[],
  };
  const audit = new RecordingAuditSink();
  const issued: IssuedAccessToken = { token: 'at', tokenType: 'Bearer', jwtId: 'jti-1', expiresIn: 3600, scopes: [] };
  const instance = new TokenResponseGenerator(
    {
      issue: async (request) => (
        calls.accessTokens.push(request),
        { ...issued, scopes: request.scopes, tokenType: request.confirmation ? ('DPoP' as const) : ('Bearer' as const) }
      ),
    },
    {
      issueFor: async (grant, _: Client, _accessToken, rotated) => (calls.refreshTokens.push({ grant, rotated }), refreshToken),
      revokeIssuedFromCode: async ({ jwtId }) => void calls.revoked.push(jwtId, `family of ${jwtId}`),
    },
    { issue: async (request) => (calls.idTokens.push(request), 'idt') },
    { recordIssued: async (bound, { jwtId }) => (calls.codes.push(`${bound.codeHash} → ${jwtId}`), codeStillUnused) },
    audit,
  );
  // The built-in grants' policies: the code, device and refresh grants sign in; they and password may refresh.
  const policy = (grantType: string) => ({ signsIn: ['authorization_code', 'refresh_token'].includes(grantType), refreshTokens: grantType !== 'urn:x' });
  const generate = (result: IssuingResult, grantType: string, to = client) => instance.generate(result, grantType, to, undefined, policy(grantType));
  return { generate, calls, events: audit.events as AuditEvent[] };
}

beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000));
afterEach(() => jest.restoreAllMocks());

describe('TokenResponseGenerator.generate', () => {
  describe('a success', () => {
    it('issues a user token with amr [grant_type] and auth_time now by default, and its custom response parameters', async () => {
      const { generate, calls, events } = generator();
      const response = await generate({ subject: 'alice', scopes: ['api1'], claims: { tenant: 't1' }, responseParameters: { partner: 'p' } }, 'urn:x');
      expect(response).toEqual({ partner: 'p', access_token: 'at', token_type: 'Bearer', expires_in: 3600, scope: 'api1' });
      expect(calls.accessTokens).toEqual([
        {
          clientId: 'web',
          lifetimeSeconds: 3600,
          scopes: ['api1'],
          subject: 'alice',
          authTime: NOW,
          authenticationMethods: ['urn:x'],
          extraClaims: { tenant: 't1' },
          actor: undefined,
          mayAct: undefined,
          expiresAtMost: undefined,
        },
      ]);
      expect(calls.idTokens).toEqual([]);
      expect(events).toEqual([{ name: 'token.issued', grantType: 'urn:x', clientId: 'web', subject: 'alice', scopes: ['api1'], jwtId: 'jti-1' }]);
    });

    it('never lets custom response parameters replace or add a standard member', async () => {
      const { generate } = generator();
      const forged = { access_token: 'f', token_type: 'f', expires_in: 1, scope: 'f', refresh_token: 'f', id_token: 'f', issued_token_type: 'f', error: 'f' };
      const response = await generate({ subject: 'alice', scopes: ['api1'], responseParameters: { ...forged, kept: 'k' } }, 'urn:x');
      expect(response).toEqual({ kept: 'k', access_token: 'at', token_type: 'Bearer', expires_in: 3600, scope: 'api1' });
    });

    it("issues a delegated token acting for the subject, capped at its subject token's expiry, keeping its auth_time and acr", async () => {
      const { generate, calls, events } = generator();
      const delegation = {
        actor: { client_id: 'web', act: { client_id: 'bff' } },
        authTime: NOW - 5,
        acr: 'phr',
        expiresAtMost: NOW + 60,
        issuedTokenType: 'urn:at',
      };
      const response = await generate({ subject: 'alice', scopes: ['api1'], authenticationMethods: ['delegation'], delegation }, 'delegation');
      expect(response.issued_token_type).toBe('urn:at');
      expect(calls.accessTokens[0]).toMatchObject({
        actor: delegation.actor,
        authTime: NOW - 5,
        acr: 'phr',
        expiresAtMost: NOW + 60,
        authenticationMethods: ['delegation'],
      });
      expect(events[0]).toMatchObject({ actors: ['web', 'bff'] });
    });

    it('names the client’s may_act policy in a user token only', async () => {
      const { generate, calls } = generator();
      const policed = { ...client, mayActClientId: 'api9' };
      await generate({ subject: 'alice', scopes: ['api1'] }, 'urn:x', policed);
      await generate({ scopes: ['api1'] }, 'urn:x', policed);
      expect(calls.accessTokens.map((request) => request.mayAct)).toEqual([{ client_id: 'api9' }, undefined]);
    });

    it('returns the refresh token the refresh-token service issues for the grant, never an ID token', async () => {
      const { generate, calls } = generator({ refreshToken: 'rt' });
      const response = await generate({ subject: 'alice', scopes: ['openid', 'offline_access'], authenticationMethods: ['pwd'] }, 'password');
      expect(response).toMatchObject({ refresh_token: 'rt' });
      expect(response).not.toHaveProperty('id_token');
      expect(calls.refreshTokens).toEqual([{ grant: expect.objectContaining({ subject: 'alice', authTime: NOW }), rotated: undefined }]);
    });
  });

  describe('a code redemption', () => {
    it("issues the sign-in's tokens with an ID token, and binds them to the code", async () => {
      const { generate, calls } = generator({ refreshToken: 'rt' });
      const response = await generate({ kind: 'code_redemption', code }, 'authorization_code');
      expect(response).toEqual({
        access_token: 'at',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'openid api1 offline_access',
        refresh_token: 'rt',
        id_token: 'idt',
      });
      expect(calls.accessTokens[0]).toMatchObject({ subject: 'alice', authTime: NOW - 100, authenticationMethods: ['pwd'] });
      expect(calls.refreshTokens[0].grant).toMatchObject({ idToken: { sessionId: 'sid-1' } });
      expect(calls.idTokens).toEqual([
        { clientId: 'web', subject: 'alice', authTime: NOW - 100, authenticationMethods: ['pwd'], sessionId: 'sid-1', nonce: 'n-1', accessToken: 'at' },
      ]);
      expect(calls.codes).toEqual(['code-hash → jti-1']);
      expect(calls.revoked).toEqual([]);
    });

    it('revokes what it issued when the code came back meanwhile', async () => {
      const { generate, calls } = generator({ codeStillUnused: false });
      await generate({ kind: 'code_redemption', code }, 'authorization_code');
      expect(calls.revoked).toEqual(['jti-1', 'family of jti-1']);
    });

    it('addresses the tokens to the code’s resources, or to those the token request narrowed them to, the family keeping all', async () => {
      const authorized = { ...code, resources: ['https://a.example/', 'https://b.example/'] };
      const { generate, calls } = generator({ refreshToken: 'rt' });
      await generate({ kind: 'code_redemption', code: authorized }, 'authorization_code');
      await generate(
        { kind: 'code_redemption', code: authorized, scopes: ['openid', 'offline_access'], audience: ['https://b.example/'] },
        'authorization_code',
      );
      expect(calls.accessTokens.map(({ audience, scopes }) => ({ audience, scopes }))).toEqual([
        { audience: authorized.resources, scopes: authorized.scopes },
        { audience: ['https://b.example/'], scopes: ['openid', 'offline_access'] },
      ]);
      expect(calls.refreshTokens.map(({ grant }) => grant.authorized)).toEqual([
        { scopes: authorized.scopes, resources: authorized.resources },
        { scopes: authorized.scopes, resources: authorized.resources },
      ]);
    });

    it('issues no ID token without openid', async () => {
      const { generate, calls } = generator();
      const response = await generate({ kind: 'code_redemption', code: { ...code, scopes: ['api1'] } }, 'authorization_code');
      expect(response).not.toHaveProperty('id_token');
      expect(calls.idTokens).toEqual([]);
    });
  });

  describe('a refresh rotation', () => {
    it('addresses the new access token to the family’s resources unless the grant narrowed them', async () => {
      const bound = { ...presented, resources: ['https://a.example/', 'https://b.example/'] };
      const { generate, calls } = generator({ refreshToken: 'rt-2' });
      await generate({ kind: 'refresh_rotation', presented: bound, scopes: ['openid'] }, 'refresh_token');
      await generate({ kind: 'refresh_rotation', presented: bound, scopes: ['openid'], audience: ['https://a.example/'] }, 'refresh_token');
      expect(calls.accessTokens.map(({ audience }) => audience)).toEqual([bound.resources, ['https://a.example/']]);
      expect(calls.refreshTokens.map(({ rotated }) => rotated?.resources)).toEqual([bound.resources, bound.resources]);
    });

    it('rotates the presented token within its family, with a new ID token for a browser sign-in', async () => {
      const { generate, calls } = generator({ refreshToken: 'rt-2' });
      const response = await generate({ kind: 'refresh_rotation', presented, scopes: ['openid', 'api1'] }, 'refresh_token');
      expect(response).toMatchObject({ scope: 'openid api1', refresh_token: 'rt-2', id_token: 'idt' });
      expect(calls.refreshTokens).toEqual([
        {
          grant: expect.objectContaining({ subject: 'alice', scopes: ['openid', 'api1'], authTime: NOW - 1000, authenticationMethods: ['refresh_token'] }),
          rotated: { id: 'family-1', scopes: presented.scopes, resources: [], expiresAt: presented.expiresAt, rotatedFrom: 'rt-hash' },
        },
      ]);
      expect(calls.idTokens[0]).toMatchObject({ sessionId: 'sid-1', authTime: NOW - 1000 });
      expect(calls.idTokens[0]).not.toHaveProperty('nonce', expect.anything());
    });

    it('issues no ID token for a family that did not begin with a browser sign-in', async () => {
      const { generate, calls } = generator({ refreshToken: 'rt-2' });
      await generate(
        { kind: 'refresh_rotation', presented: { ...presented, sessionId: undefined, authenticationMethods: ['pwd'] }, scopes: ['openid'] },
        'refresh_token',
      );
      expect(calls.idTokens).toEqual([]);
      expect(calls.accessTokens[0].authenticationMethods).toEqual(['pwd']);
    });
  });

  describe('a self-issued token', () => {
    it('answers with the token as it is, issues nothing else, and audits its transaction', async () => {
      const { generate, calls, events } = generator();
      const token = { token: 'txn', tokenType: 'N_A' as const, expiresIn: 60, scopes: ['api1'], transactionId: 'txn-1' };
      const response = await generate({ kind: 'self_issued', subject: 'alice', token, issuedTokenType: 'urn:txn', subjectIssuer: 'https://idp' }, 'urn:te');
      expect(response).toEqual({ access_token: 'txn', token_type: 'N_A', expires_in: 60, scope: 'api1', issued_token_type: 'urn:txn' });
      expect(calls.accessTokens).toEqual([]);
      expect(calls.refreshTokens).toEqual([]);
      expect(events).toEqual([
        {
          name: 'token.issued',
          grantType: 'urn:te',
          clientId: 'web',
          subject: 'alice',
          scopes: ['api1'],
          tokenType: 'urn:txn',
          transactionId: 'txn-1',
          subjectIssuer: 'https://idp',
        },
      ]);
    });
  });
});

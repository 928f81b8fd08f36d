import type { AccessTokenDenyList } from '../access-token/access-token-deny-list';
import type { RevokedAccessToken } from '../access-token/revoked-access-token';
import type { Client } from '../../identity/clients/client';
import { hashRefreshTokenHandle, type CompanionAccessToken, type NewRefreshToken, type RefreshToken, type RotationOutcome } from './refresh-token';
import { RefreshTokenRepository } from './refresh-token.repository';
import { RefreshTokenService, type IssuedGrant } from './refresh-token.service';

class InMemoryRefreshTokens extends RefreshTokenRepository {
  readonly tokens = new Map<string, RefreshToken & { accessToken: CompanionAccessToken }>();

  async findByHash(tokenHash: string): Promise<RefreshToken | undefined> {
    return this.tokens.get(tokenHash);
  }
  async add(token: NewRefreshToken): Promise<void> {
    this.tokens.set(token.tokenHash, token);
  }
  async addToFamily(token: NewRefreshToken): Promise<boolean> {
    if ([...this.tokens.values()].some((stored) => stored.familyId === token.familyId && stored.revokedAt)) return false;
    await this.add(token);
    return true;
  }
  failNextInsert = false;
  async rotate(consumedHash: string, successor: NewRefreshToken, at: Date): Promise<RotationOutcome> {
    if ([...this.tokens.values()].some((stored) => stored.familyId === successor.familyId && stored.revokedAt)) return 'revoked';
    const token = this.tokens.get(consumedHash);
    if (!token || token.consumedAt || token.revokedAt) return 'consumed';
    // Like the transaction: a failure before the end leaves the presented token as it was.
    if (this.failNextInsert) {
      this.failNextInsert = false;
      throw new Error('connection terminated');
    }
    this.tokens.set(consumedHash, { ...token, consumedAt: at });
    await this.add(successor);
    return 'rotated';
  }
  async revokeFamily(familyId: string, at: Date): Promise<CompanionAccessToken[]> {
    const revoked: CompanionAccessToken[] = [];
    for (const [hash, token] of this.tokens) {
      if (token.familyId !== familyId || token.revokedAt) continue;
      this.tokens.set(hash, { ...token, revokedAt: at });
      revoked.push(token.accessToken);
    }
    return revoked;
  }
  async findFamilyIdByAccessToken(jwtId: string): Promise<string | undefined> {
    return [...this.tokens.values()].find((token) => token.accessToken.jwtId === jwtId)?.familyId;
  }
  async deleteExpiredBefore(): Promise<number> {
    return 0;
  }
}

function setup() {
  const repository = new InMemoryRefreshTokens();
  const denied: RevokedAccessToken[] = [];
  const denyList: Pick<AccessTokenDenyList, 'revoke'> = { revoke: async (tokens) => void denied.push(...tokens) };
  return { repository, denied, service: new RefreshTokenService(repository, denyList) };
}

const frontend: Client = {
  clientId: 'frontend',
  enabled: true,
  allowedGrantTypes: ['password', 'refresh_token'],
  allowedScopes: ['openid', 'api1', 'offline_access'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 86_400,
  secrets: [],
  public: false,
  redirectUris: [],
  postLogoutRedirectUris: [],
  requireConsent: false,
};
const passwordGrant: IssuedGrant = {
  refreshable: true,
  subject: '1',
  scopes: ['openid', 'api1', 'offline_access'],
  authTime: 1_900_000_000,
  authenticationMethods: ['pwd'],
};
const accessToken = { token: 'jwt', tokenType: 'Bearer' as const, jwtId: 'jti-1', expiresIn: 3600, scopes: passwordGrant.scopes };

describe('RefreshTokenService', () => {
  describe('issueFor', () => {
    it.each<[string, Partial<IssuedGrant>, Partial<Client>]>([
      ['offline_access was not granted', { scopes: ['openid', 'api1'] }, {}],
      ['the token has no user', { subject: undefined }, {}],
      ['the token is delegated', { actor: { client_id: 'api1' } }, {}],
      ['the client may not use the refresh_token grant', {}, { allowedGrantTypes: ['password'] }],
    ])('issues nothing when %s', async (_, grant, client) => {
      const { service, repository } = setup();
      expect(await service.issueFor({ ...passwordGrant, ...grant }, { ...frontend, ...client }, accessToken)).toBeUndefined();
      expect(repository.tokens.size).toBe(0);
    });

    it("binds a public client's new family to the DPoP key of the access token, and a confidential client's not (RFC 9449 §5)", async () => {
      const { service } = setup();
      const confirmation = { jkt: 'key-1' };
      const forPublic = (await service.issueFor({ ...passwordGrant, confirmation }, { ...frontend, public: true }, accessToken))!;
      const forConfidential = (await service.issueFor({ ...passwordGrant, confirmation }, frontend, accessToken))!;
      expect((await service.find(forPublic))?.confirmation).toEqual(confirmation);
      expect((await service.find(forConfidential))?.confirmation).toBeUndefined();
    });

    it('refuses to rotate into a family that was revoked meanwhile', async () => {
      const { service, repository } = setup();
      const first = (await service.issueFor(passwordGrant, frontend, accessToken))!;
      const stored = (await service.find(first))!;
      await repository.revokeFamily(stored.familyId, new Date());
      const family = { id: stored.familyId, scopes: stored.scopes, resources: [], expiresAt: stored.expiresAt };
      await expect(service.issueFor(passwordGrant, frontend, accessToken, family)).rejects.toEqual(
        expect.objectContaining({ code: 'invalid_grant', description: 'the refresh token has been revoked' }),
      );
    });

    it('starts a family with the client lifetime and stores only the hash of the handle', async () => {
      const { service, repository } = setup();
      const before = Date.now();
      const handle = (await service.issueFor(passwordGrant, frontend, accessToken))!;
      const [stored] = repository.tokens.values();
      expect(stored).toMatchObject({
        tokenHash: hashRefreshTokenHandle(handle),
        subject: '1',
        clientId: 'frontend',
        scopes: ['openid', 'api1', 'offline_access'],
        authTime: 1_900_000_000,
        authenticationMethods: ['pwd'],
        accessToken: { jwtId: 'jti-1' },
      });
      expect(JSON.stringify(stored)).not.toContain(handle);
      expect(stored.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 86_400_000);
      expect(stored.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000);
      // One clock for both: introspection's exp - iat is the lifetime to the second.
      expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(86_400_000);
    });

    it('rotates within the family, keeping its scope and absolute expiry', async () => {
      const { service } = setup();
      const family = {
        id: '8d5e4a3c-0000-4000-8000-000000000001',
        scopes: ['openid', 'api1', 'offline_access'],
        resources: [],
        expiresAt: new Date('2031-01-01T00:00:00Z'),
      };
      const handle = (await service.issueFor({ ...passwordGrant, scopes: ['api1'] }, frontend, accessToken, family))!;
      expect(await service.find(handle)).toMatchObject({ familyId: family.id, scopes: family.scopes, expiresAt: family.expiresAt });
    });
  });

  describe('find', () => {
    it('finds nothing for a malformed handle without asking the repository', async () => {
      const { service, repository } = setup();
      repository.findByHash = jest.fn();
      expect(await service.find('not.a.handle')).toBeUndefined();
      expect(repository.findByHash).not.toHaveBeenCalled();
    });
  });

  describe('issueFor, rotating a presented token', () => {
    async function presented(service: RefreshTokenService) {
      const token = (await service.find((await service.issueFor(passwordGrant, frontend, accessToken))!))!;
      return { token, family: { id: token.familyId, scopes: token.scopes, resources: [], expiresAt: token.expiresAt, rotatedFrom: token.tokenHash } };
    }

    it('lets exactly one of two uses through; the other is invalid_grant and revokes nothing', async () => {
      const { service, denied } = setup();
      const { family } = await presented(service);
      const outcomes = await Promise.allSettled([
        service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-a' }, family),
        service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-b' }, family),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_grant', description: 'the refresh token has already been used' });
      const successor = await service.find((outcomes[0] as PromiseFulfilledResult<string>).value);
      expect(successor?.revokedAt).toBeUndefined();
      expect(denied).toEqual([]);
    });

    it('leaves the presented token active when storing its successor fails, so a retry succeeds', async () => {
      const { service, repository } = setup();
      const { token, family } = await presented(service);
      repository.failNextInsert = true;
      await expect(service.issueFor(passwordGrant, frontend, accessToken, family)).rejects.toThrow('connection terminated');
      expect((await repository.findByHash(token.tokenHash))?.consumedAt).toBeUndefined();
      const handle = await service.issueFor(passwordGrant, frontend, accessToken, family);
      expect((await service.find(handle!))?.familyId).toBe(token.familyId);
      expect((await repository.findByHash(token.tokenHash))?.consumedAt).toBeInstanceOf(Date);
    });

    it('refuses to rotate within a revoked family', async () => {
      const { service } = setup();
      const { family } = await presented(service);
      await service.revokeFamily(family.id);
      await expect(service.issueFor(passwordGrant, frontend, accessToken, family)).rejects.toMatchObject({
        code: 'invalid_grant',
        description: 'the refresh token has been revoked',
      });
    });
  });

  describe('revokeFamily', () => {
    it('revokes every token of the family and denies the access tokens issued with them', async () => {
      const { service, denied } = setup();
      const first = (await service.find((await service.issueFor(passwordGrant, frontend, accessToken))!))!;
      const family = { id: first.familyId, scopes: first.scopes, resources: [], expiresAt: first.expiresAt };
      const second = (await service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-2' }, family))!;
      const other = (await service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-3' }))!;

      await service.revokeFamily(first.familyId);
      expect((await service.find(second))?.revokedAt).toBeInstanceOf(Date);
      expect((await service.find(other))?.revokedAt).toBeUndefined();
      expect(denied.map((token) => token.jwtId)).toEqual(['jti-1', 'jti-2']);
    });
  });

  describe('revokeIssuedFromCode', () => {
    it('denies the access token a replayed code was exchanged for, and revokes the family issued with it', async () => {
      const { service, denied } = setup();
      const handle = (await service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-code' }))!;
      await service.revokeIssuedFromCode({ jwtId: 'jti-code', expiresAt: new Date(2_000_000_000_000) });
      expect((await service.find(handle))?.revokedAt).toBeInstanceOf(Date);
      expect(denied).toEqual([{ jwtId: 'jti-code', expiresAt: 2_000_000_000 }, expect.objectContaining({ jwtId: 'jti-code' })]);
    });
  });

  describe('revokeFamilyIssuedWith', () => {
    it('revokes the family of the refresh token issued with an access token, and nothing when there is none', async () => {
      const { service, denied } = setup();
      const handle = (await service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-code' }))!;
      const other = (await service.issueFor(passwordGrant, frontend, { ...accessToken, jwtId: 'jti-other' }))!;

      await service.revokeFamilyIssuedWith('jti-unknown');
      expect(denied).toEqual([]);
      await service.revokeFamilyIssuedWith('jti-code');
      expect((await service.find(handle))?.revokedAt).toBeInstanceOf(Date);
      expect((await service.find(other))?.revokedAt).toBeUndefined();
      expect(denied.map((token) => token.jwtId)).toEqual(['jti-code']);
    });
  });

  it('keeps the sign-in session of a browser grant with its refresh token', async () => {
    const { service } = setup();
    const handle = (await service.issueFor({ ...passwordGrant, idToken: { sessionId: 'sid-1' } }, frontend, accessToken))!;
    expect((await service.find(handle))?.sessionId).toBe('sid-1');
  });
});

import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import type { AccessTokenDenyList } from '../../tokens/access-token/access-token-deny-list';
import type { AccessTokenValidator } from '../../tokens/access-token/access-token.validator';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { OAuthError } from '../../protocol/oauth-error';
import type { RefreshToken } from '../../tokens/refresh-tokens/refresh-token';
import type { RefreshTokenService } from '../../tokens/refresh-tokens/refresh-token.service';
import { RevocationService } from './revocation.service';

const REFRESH_HANDLE = 'r'.repeat(43);
const accessToken = { jwtId: 'jti-1', clientId: 'frontend', expiresAt: 1_900_000_000 } as ValidatedAccessToken;
const refreshToken = { familyId: 'family-1', clientId: 'frontend' } as RefreshToken;

function setup(fault?: Error) {
  const calls: string[] = [];
  const accessTokens: Pick<AccessTokenValidator, 'validate'> = {
    async validate(token: string) {
      if (fault) throw fault;
      if (token === 'a.b.c') return accessToken;
      throw OAuthError.invalidToken('the token has been revoked');
    },
  };
  const refreshTokens: Pick<RefreshTokenService, 'find' | 'revokeFamily'> = {
    find: async (handle: string) => (handle === REFRESH_HANDLE ? refreshToken : undefined),
    revokeFamily: async (familyId: string) => void calls.push(`revokeFamily ${familyId}`),
  };
  const denyList: Pick<AccessTokenDenyList, 'revoke'> = { revoke: async (tokens) => void calls.push(`deny ${JSON.stringify(tokens)}`) };
  const audit = new RecordingAuditSink();
  return { service: new RevocationService(accessTokens, refreshTokens, denyList, audit), calls, audit };
}

const as = (clientId: string) => ({ client: { clientId } }) as AuthenticatedClient;
const notYours = expect.objectContaining({ code: 'invalid_request', status: 400, description: 'the token was not issued to this client' });

describe('RevocationService', () => {
  it("refuses another client's refresh token and leaves it alone", async () => {
    const { service, calls } = setup();
    await expect(service.revoke({ token: REFRESH_HANDLE }, as('m2m'))).rejects.toEqual(notYours);
    expect(calls).toEqual([]);
  });

  it("refuses another client's access token and leaves it alone", async () => {
    const { service, calls } = setup();
    await expect(service.revoke({ token: 'a.b.c' }, as('api1'))).rejects.toEqual(notYours);
    expect(calls).toEqual([]);
  });

  it('passes an unexpected fault on', async () => {
    const outage = new Error('Connection terminated');
    await expect(setup(outage).service.revoke({ token: 'a.b.c' }, as('frontend'))).rejects.toBe(outage);
  });

  it.each([
    ['an unknown refresh token', 'u'.repeat(43)],
    ['an invalid or already revoked access token', 'x.y.z'],
    ['garbage', 'not a token'],
  ])('does nothing for %s', async (_, token) => {
    const { service, calls } = setup();
    await expect(service.revoke({ token }, as('frontend'))).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('revokes the whole family of an own refresh token, whatever the hint says', async () => {
    const { service, calls, audit } = setup();
    await service.revoke({ token: REFRESH_HANDLE, token_type_hint: 'access_token' }, as('frontend'));
    expect(calls).toEqual(['revokeFamily family-1']);
    expect(audit.events).toEqual([{ name: 'token.revoked', clientId: 'frontend', tokenType: 'refresh_token', familyId: 'family-1' }]);
  });

  it('denies an own access token until its expiry', async () => {
    const { service, calls, audit } = setup();
    await service.revoke({ token: 'a.b.c', token_type_hint: 'refresh_token' }, as('frontend'));
    expect(calls).toEqual(['deny [{"jwtId":"jti-1","expiresAt":1900000000}]']);
    expect(audit.events).toEqual([{ name: 'token.revoked', clientId: 'frontend', tokenType: 'access_token', jwtId: 'jti-1' }]);
  });
});

import { aliceAccessToken, demoResources, subjectTokenValidator, testClient } from '../../grants/grant.fixtures';
import { OAuthError } from '../../protocol/oauth-error';
import type { ValidatedAccessToken } from '../access-token/access-token';

const TOKENS: Record<string, ValidatedAccessToken> = {
  alice: aliceAccessToken({ actor: { client_id: 'web' }, acr: 'phr' }),
  'no-sub': aliceAccessToken({ subject: undefined }),
  'for-api2': aliceAccessToken({ audiences: ['api2'] }),
  'bob-disabled': aliceAccessToken({ subject: '2' }),
  'may-act-api3': aliceAccessToken({ mayAct: { client_id: 'api3' } }),
  bound: aliceAccessToken({ confirmation: { jkt: 'user-key' } }),
};

const validator = subjectTokenValidator({
  validate: async (token: string) => {
    if (token === 'revoked') throw OAuthError.invalidToken('the token has been revoked');
    if (token === 'outage') throw new OAuthError('temporarily_unavailable', 'database down');
    const found = TOKENS[token];
    if (!found) throw OAuthError.invalidToken('the token signature, issuer or lifetime is invalid');
    return found;
  },
});
const context = { client: testClient(), resources: demoResources };
const refused = (code: string, description: string) => expect.objectContaining({ code, description });

describe('SubjectTokenValidator', () => {
  it.each([
    ['a revoked token', 'revoked', 'the subject token is not valid: the token has been revoked'],
    ['a forged token', 'forged', 'the subject token is not valid: the token signature, issuer or lifetime is invalid'],
    ['a token of no user', 'no-sub', 'the subject token does not represent a user'],
    ['a token addressed to another client', 'for-api2', 'the subject token is not addressed to this client (aud)'],
    ["a disabled user's token", 'bob-disabled', 'the user is unknown or disabled'],
    ['a token whose may_act names another client', 'may-act-api3', 'the subject token does not allow this client to act for its subject (may_act)'],
  ])('refuses %s as invalid_grant', async (_, token, description) => {
    await expect(validator.validate(token, context)).rejects.toEqual(refused('invalid_grant', description));
  });

  it('refuses a DPoP-bound token without a proof as invalid_dpop_proof, and accepts it with one', async () => {
    await expect(validator.validate('bound', context)).rejects.toEqual(
      refused('invalid_dpop_proof', 'the subject token is DPoP-bound: send a DPoP proof of your own key'),
    );
    await expect(validator.validate('bound', { ...context, dpop: { jkt: 'api-key' } })).resolves.toMatchObject({ cnf: { jkt: 'user-key' } });
  });

  it("accepts a trusted subject issuer's token only when asked to, as token exchange does, naming the issuer", async () => {
    const external = {
      validate: async (token: string) =>
        token === 'idp-token' ? { issuer: 'https://idp.example', token: aliceAccessToken({ audiences: ['idp'] }) } : undefined,
    };
    const withIssuers = subjectTokenValidator({ validate: async () => Promise.reject(OAuthError.invalidToken('not ours')) }, external);
    await expect(withIssuers.validate('idp-token', context)).rejects.toEqual(refused('invalid_grant', 'the subject token is not valid: not ours'));
    await expect(withIssuers.validate('idp-token', context, { trustedIssuers: true })).resolves.toMatchObject({ subject: '1', issuer: 'https://idp.example' });
  });

  it('passes an outage on unchanged', async () => {
    await expect(validator.validate('outage', context)).rejects.toEqual(refused('temporarily_unavailable', 'database down'));
  });

  it('answers subject, scopes, act, authTime and expiresAt in epoch seconds, and the acr a delegation keeps', async () => {
    await expect(validator.validate('alice', context)).resolves.toEqual({
      subject: '1',
      scopes: ['openid', 'profile', 'api1'],
      act: { client_id: 'web' },
      authTime: 1_899_999_000,
      expiresAt: 1_900_000_900,
      acr: 'phr',
    });
  });
});

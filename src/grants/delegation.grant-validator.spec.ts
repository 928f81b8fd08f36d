import type { ValidatedAccessToken } from '../tokens/access-token/access-token';
import type { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import type { RequestParameters } from '../protocol/form';
import { OAuthError } from '../protocol/oauth-error';
import { GrantParameterSchema } from '../protocol/grant-parameters';
import { DelegationGrantValidator } from './delegation.grant-validator';
import { aliceAccessToken, demoResources, subjectTokenValidator, testClient, submit, type GrantRequest } from './grant.fixtures';

const resources = demoResources;
const client = testClient();
const aliceToken = aliceAccessToken();

/** A stand-in for the real validator: 'alice' is valid, 'no-sub' lacks a subject, anything else fails. */
function validatorWith(fault?: Error): { validator: DelegationGrantValidator; seen: string[] } {
  const seen: string[] = [];
  const accessTokens: Pick<AccessTokenValidator, 'validate'> = {
    async validate(token: string): Promise<ValidatedAccessToken> {
      seen.push(token);
      if (fault) throw fault;
      if (token === 'alice') return aliceToken;
      if (token === 'no-sub') return { ...aliceToken, subject: undefined };
      if (token === 'for-api3') return { ...aliceToken, mayAct: { client_id: 'api3' } };
      if (token === 'for-api1') return { ...aliceToken, mayAct: { client_id: 'api1' } };
      if (token === 'for-api2') return { ...aliceToken, audiences: ['api2'] };
      if (token === 'bob-disabled') return { ...aliceToken, subject: '2' };
      throw OAuthError.invalidToken('the token signature, issuer or lifetime is invalid');
    },
  };
  return { validator: new DelegationGrantValidator(subjectTokenValidator(accessTokens)), seen };
}

function context(parameters: RequestParameters): GrantRequest {
  return { grantType: 'delegation', client, parameters, scopes: { names: ['api2'], explicit: true }, resources, clientAddress: '127.0.0.1' };
}

const invalidGrant = (description: string) => expect.objectContaining({ code: 'invalid_grant', status: 400, description });

describe('DelegationGrantValidator', () => {
  it.each([
    ['missing', {}],
    ['empty', { token: '' }],
  ])('refuses a %s token as invalid_grant without validating anything', async (_, parameters) => {
    const { validator, seen } = validatorWith();
    await expect(submit(validator, context(parameters))).rejects.toEqual(invalidGrant('token is required'));
    expect(seen).toEqual([]);
  });

  it('refuses a token that fails access-token validation as invalid_grant', async () => {
    await expect(submit(validatorWith().validator, context({ token: 'forged' }))).rejects.toEqual(
      invalidGrant('the subject token is not valid: the token signature, issuer or lifetime is invalid'),
    );
  });

  it('refuses a valid token without sub as invalid_grant', async () => {
    await expect(submit(validatorWith().validator, context({ token: 'no-sub' }))).rejects.toEqual(invalidGrant('the subject token does not represent a user'));
  });

  it('refuses a token addressed to another client as invalid_grant', async () => {
    await expect(submit(validatorWith().validator, context({ token: 'for-api2' }))).rejects.toEqual(
      invalidGrant('the subject token is not addressed to this client (aud)'),
    );
  });

  it("refuses a disabled user's token as invalid_grant", async () => {
    await expect(submit(validatorWith().validator, context({ token: 'bob-disabled' }))).rejects.toEqual(invalidGrant('the user is unknown or disabled'));
  });

  it('refuses a token whose may_act names another client as invalid_grant (RFC 8693 §4.4)', async () => {
    await expect(submit(validatorWith().validator, context({ token: 'for-api3' }))).rejects.toEqual(
      invalidGrant('the subject token does not allow this client to act for its subject (may_act)'),
    );
  });

  it('accepts a token whose may_act names the client', async () => {
    await expect(submit(validatorWith().validator, context({ token: 'for-api1' }))).resolves.toEqual(expect.objectContaining({ subject: '1' }));
  });

  it('passes an unexpected fault of the token validator on instead of calling it invalid_grant', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await expect(submit(validatorWith(outage).validator, context({ token: 'alice' }))).rejects.toBe(outage);
  });

  it('declares the delegation grant type and its one parameter', () => {
    const { validator } = validatorWith();
    expect([validator.grantType, [...GrantParameterSchema.of(validator.parameters).names]]).toEqual(['delegation', ['token']]);
  });

  it("issues a token for the subject token's user with the client as actor", async () => {
    const { validator, seen } = validatorWith();
    await expect(submit(validator, context({ token: 'alice' }))).resolves.toEqual({
      subject: '1',
      scopes: ['api2'],
      authenticationMethods: ['delegation'],
      delegation: { actor: { client_id: 'api1' }, authTime: 1_899_999_000, expiresAtMost: 1_900_000_900 },
    });
    expect(seen).toEqual(['alice']);
  });
});

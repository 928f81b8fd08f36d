import type { ValidatedAccessToken } from '../tokens/access-token/access-token';
import type { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import type { RequestParameters } from '../protocol/form';
import { OAuthError } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';
import { aliceAccessToken, demoResources, subjectTokenValidator, testClient, submit, type GrantRequest } from './grant.fixtures';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE } from './token-exchange-request';
import { TokenExchangeGrantValidator } from './token-exchange.grant-validator';
import { AccessTokenExchangeHandler } from './access-token.exchange-handler';
import type { TokenExchangeHandler } from './token-exchange-handler';
import { TokenExchangeHandlers } from './token-exchange-handlers';

const resources = demoResources;
const api1 = testClient({ allowedGrantTypes: [TOKEN_EXCHANGE_GRANT_TYPE] });
const alice = aliceAccessToken({ actor: { client_id: 'gateway' } });
const TOKENS: Record<string, ValidatedAccessToken> = {
  alice,
  'no-sub': { ...alice, subject: undefined },
  'for-api2': { ...alice, audiences: ['api2'] },
  'api1-own': { ...alice, jwtId: 'jti-2', subject: undefined, clientId: 'api1', actor: undefined },
  'api1-user': { ...alice, jwtId: 'jti-3', clientId: 'api1', actor: undefined },
  'for-api3-only': { ...alice, mayAct: { client_id: 'api3' } },
  'for-api1-by-sub': { ...alice, mayAct: { sub: 'api1' } },
};

function validatorWith(fault?: Error): { validator: TokenExchangeGrantValidator; seen: string[] } {
  const seen: string[] = [];
  const accessTokens: Pick<AccessTokenValidator, 'validate'> = {
    async validate(token: string): Promise<ValidatedAccessToken> {
      seen.push(token);
      if (fault) throw fault;
      if (token in TOKENS) return TOKENS[token];
      throw OAuthError.invalidToken('the token signature, issuer or lifetime is invalid');
    },
  };
  // Transaction tokens have their own spec (txn-tokens/): here it only has to be there.
  const transactionTokens: TokenExchangeHandler = {
    subjectTokenType: ['urn:ietf:params:oauth:token-type:txn_token', ACCESS_TOKEN_TYPE],
    requestedTokenType: 'urn:ietf:params:oauth:token-type:txn_token',
    exchange: async () => {
      throw new Error('not expected in this spec');
    },
  };
  const handlers = new TokenExchangeHandlers();
  handlers.add(new AccessTokenExchangeHandler(subjectTokenValidator(accessTokens), accessTokens));
  handlers.add(transactionTokens);
  return { validator: new TokenExchangeGrantValidator(handlers), seen };
}

function context(parameters: RequestParameters, scopes: RequestedScopes = { names: ['api2'], explicit: true }): GrantRequest {
  return { grantType: TOKEN_EXCHANGE_GRANT_TYPE, client: api1, parameters, scopes, resources, clientAddress: '127.0.0.1' };
}

const subject = (token: string): RequestParameters => ({ subject_token: token, subject_token_type: ACCESS_TOKEN_TYPE });
const invalid = (code: string, description: string) => expect.objectContaining({ code, status: 400, description });

describe('TokenExchangeGrantValidator', () => {
  it('refuses a malformed request as invalid_request before validating any token', async () => {
    const { validator, seen } = validatorWith();
    await expect(submit(validator, context({ subject_token: 'alice' }))).rejects.toEqual(invalid('invalid_request', 'subject_token_type is required'));
    expect(seen).toEqual([]);
  });

  it('refuses an audience the client may not target as invalid_target before validating any token', async () => {
    const { validator, seen } = validatorWith();
    await expect(submit(validator, context({ ...subject('alice'), audience: ['api1'] }))).rejects.toEqual(
      invalid('invalid_target', 'the client may not obtain a token for api1'),
    );
    expect(seen).toEqual([]);
  });

  it('refuses a requested_token_type no handler issues as invalid_request before validating any token', async () => {
    const { validator, seen } = validatorWith();
    await expect(submit(validator, context({ ...subject('alice'), requested_token_type: 'urn:ietf:params:oauth:token-type:jwt' }))).rejects.toEqual(
      invalid('invalid_request', `requested_token_type must be one of ${ACCESS_TOKEN_TYPE}, urn:ietf:params:oauth:token-type:txn_token`),
    );
    expect(seen).toEqual([]);
  });

  it('refuses a transaction token as the subject of an access-token exchange before validating it', async () => {
    const { validator, seen } = validatorWith();
    await expect(submit(validator, context({ subject_token: 'alice', subject_token_type: 'urn:ietf:params:oauth:token-type:txn_token' }))).rejects.toEqual(
      invalid(
        'invalid_request',
        `subject_token_type urn:ietf:params:oauth:token-type:txn_token cannot be exchanged for ${ACCESS_TOKEN_TYPE}; it must be one of ${ACCESS_TOKEN_TYPE}, urn:ietf:params:oauth:token-type:jwt`,
      ),
    );
    expect(seen).toEqual([]);
  });

  it('refuses a subject_token_type no handler accepts for the requested type as invalid_request before validating any token', async () => {
    const { validator, seen } = validatorWith();
    const parameters = { subject_token: 'alice', subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' };
    await expect(submit(validator, context(parameters))).rejects.toEqual(
      invalid('invalid_request', expect.stringContaining('subject_token_type urn:ietf:params:oauth:token-type:id_token cannot be exchanged for')),
    );
    expect(seen).toEqual([]);
  });

  it('refuses a subject token whose may_act names another client as invalid_request (RFC 8693 §4.4)', async () => {
    await expect(submit(validatorWith().validator, context(subject('for-api3-only')))).rejects.toEqual(
      invalid('invalid_request', 'the subject token does not allow this client to act for its subject (may_act)'),
    );
  });

  it('accepts a subject token whose may_act names the client by sub', async () => {
    await expect(submit(validatorWith().validator, context(subject('for-api1-by-sub')))).resolves.toEqual(expect.objectContaining({ subject: '1' }));
  });

  it('refuses a subject token that fails validation as invalid_request', async () => {
    await expect(submit(validatorWith().validator, context(subject('forged')))).rejects.toEqual(
      invalid('invalid_request', 'the subject token is not valid: the token signature, issuer or lifetime is invalid'),
    );
  });

  it('refuses a subject token without sub as invalid_request', async () => {
    await expect(submit(validatorWith().validator, context(subject('no-sub')))).rejects.toEqual(
      invalid('invalid_request', 'the subject token does not represent a user'),
    );
  });

  it('refuses a subject token whose aud lacks the client as invalid_request', async () => {
    await expect(submit(validatorWith().validator, context(subject('for-api2')))).rejects.toEqual(
      invalid('invalid_request', 'the subject token is not addressed to this client (aud)'),
    );
  });

  it('refuses an actor token that fails validation as invalid_request', async () => {
    const parameters = { ...subject('alice'), actor_token: 'forged', actor_token_type: ACCESS_TOKEN_TYPE };
    await expect(submit(validatorWith().validator, context(parameters))).rejects.toEqual(
      invalid('invalid_request', 'actor_token is not a valid access token: the token signature, issuer or lifetime is invalid'),
    );
  });

  it.each([
    ["another client's token", 'alice'],
    ["a user's token issued to the client", 'api1-user'],
  ])('refuses as actor token %s', async (_, actorToken) => {
    const parameters = { ...subject('alice'), actor_token: actorToken, actor_token_type: ACCESS_TOKEN_TYPE };
    await expect(submit(validatorWith().validator, context(parameters))).rejects.toEqual(
      invalid('invalid_request', 'actor_token does not represent the requesting client'),
    );
  });

  it('refuses identity scopes the subject token lacks as invalid_scope (the delegation rule)', async () => {
    await expect(submit(validatorWith().validator, context(subject('alice'), { names: ['role', 'api2'], explicit: true }))).rejects.toEqual(
      invalid('invalid_scope', 'scope role was not granted to the subject token'),
    );
  });

  it('passes an unexpected fault of the token validator on', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await expect(submit(validatorWith(outage).validator, context(subject('alice')))).rejects.toBe(outage);
  });

  it('issues a delegated access token for the subject with the client as actor, and says so', async () => {
    const grant = await submit(validatorWith().validator, context(subject('alice')));
    expect(grant).toEqual({
      subject: '1',
      scopes: ['api2'],
      authenticationMethods: [TOKEN_EXCHANGE_GRANT_TYPE],
      delegation: {
        actor: { client_id: 'api1', act: { client_id: 'gateway' } },
        authTime: 1_899_999_000,
        expiresAtMost: 1_900_000_900,
        issuedTokenType: ACCESS_TOKEN_TYPE,
      },
      issuedTokenType: ACCESS_TOKEN_TYPE,
    });
    expect(grant).not.toHaveProperty('refreshTokenFamily');
  });

  it("accepts the client's own token as actor token", async () => {
    const { validator, seen } = validatorWith();
    const parameters = { ...subject('alice'), actor_token: 'api1-own', actor_token_type: ACCESS_TOKEN_TYPE };
    await expect(submit(validator, context(parameters))).resolves.toEqual(expect.objectContaining({ subject: '1' }));
    expect(seen).toEqual(['alice', 'api1-own']);
  });

  it('limits the default scope to the targets', async () => {
    const defaults = { names: ['openid', 'profile', 'api1', 'api2'], explicit: false };
    const grant = await submit(validatorWith().validator, context({ ...subject('alice'), audience: ['api2'], resource: ['api2'] }, defaults));
    expect(grant).toMatchObject({ scopes: ['openid', 'profile', 'api2'] });
  });
});

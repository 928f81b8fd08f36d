import { continuedGrant } from './grant-continuation';
import type { ValidatedAccessToken } from '../tokens/access-token/access-token';
import type { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import { aliceAccessToken, demoResources, testClient } from './grant.fixtures';
import type { GrantContext } from './grant-validator';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE, TXN_TOKEN_TYPE, type TokenExchangeRequest } from './token-exchange-request';
import { OAuthError } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';
import type { ValidatedTransactionToken } from '../tokens/txn-tokens/txn-token';
import { TransactionTokenExchangeHandler } from './txn-token.exchange-handler';
import type { TransactionTokenIssuer, TransactionTokenRequest } from '../tokens/txn-tokens/txn-token.issuer';
import type { TransactionTokenValidator } from '../tokens/txn-tokens/txn-token.validator';

const TRUST_DOMAIN = 'https://mesh.example';
const gateway = testClient({
  clientId: 'gateway',
  allowedGrantTypes: [TOKEN_EXCHANGE_GRANT_TYPE],
  allowedScopes: ['openid', 'api1', 'api2'],
  transactionTokens: true,
});
const alice = aliceAccessToken({ scopes: ['openid', 'profile', 'api1'] });
const replaced: ValidatedTransactionToken = {
  transactionId: 'txn-1',
  subject: '1',
  scopes: ['openid', 'api1'],
  requestingWorkloads: ['gateway'],
  transactionContext: { action: 'checkout' },
  requestContext: { req_ip: '10.0.0.1' },
  expiresAt: 1_900_000_060,
};

const carried: ValidatedTransactionToken = { ...replaced, subjectToken: { expiresAt: 1_900_000_030, jwtId: 'jti-of-alice' } };
const now = () => Math.floor(Date.now() / 1000);

function handlerWith(revoked: readonly string[] = []): { handler: TransactionTokenExchangeHandler; issued: TransactionTokenRequest[] } {
  const issued: TransactionTokenRequest[] = [];
  const accessTokens: Pick<AccessTokenValidator, 'validate'> = {
    async validate(token: string): Promise<ValidatedAccessToken> {
      if (token === 'alice') return alice;
      if (token === 'm2m') return { ...alice, subject: undefined };
      if (token === 'for-api1-only') return { ...alice, mayAct: { client_id: 'api1' } };
      throw OAuthError.invalidToken('the token signature, issuer or lifetime is invalid');
    },
  };
  const transactionTokens: Pick<TransactionTokenValidator, 'validate'> = {
    async validate(token: string): Promise<ValidatedTransactionToken> {
      if (token === 'txn') return replaced;
      if (token === 'txn-carrying') return carried;
      if (token === 'txn-of-expired') return { ...carried, subjectToken: { expiresAt: now() - 1, jwtId: 'jti-of-alice' } };
      if (token === 'txn-of-expired-external') return { ...carried, subjectToken: { expiresAt: now() - 1 } };
      throw OAuthError.invalidToken('the token is not a transaction token (typ)');
    },
  };
  const issuer: Pick<TransactionTokenIssuer, 'issue'> = {
    async issue(request: TransactionTokenRequest) {
      issued.push(request);
      return { token: 'signed', transactionId: request.transactionId ?? 'txn-new', expiresIn: 60 };
    },
  };
  return {
    handler: new TransactionTokenExchangeHandler(
      accessTokens,
      transactionTokens,
      issuer,
      { trustDomain: TRUST_DOMAIN },
      { validate: async () => undefined },
      { isRevoked: (jwtId) => revoked.includes(jwtId) },
    ),
    issued,
  };
}

function request(overrides: Partial<TokenExchangeRequest> = {}): TokenExchangeRequest {
  return { subjectToken: 'alice', subjectTokenType: ACCESS_TOKEN_TYPE, requestedTokenType: TXN_TOKEN_TYPE, targets: [], ...overrides };
}

function context(scopes: RequestedScopes = { names: ['openid', 'api1'], explicit: true }, client = gateway): GrantContext {
  return {
    grantType: TOKEN_EXCHANGE_GRANT_TYPE,
    client,
    scopes,
    resources: demoResources,
    resourceIndicators: [],
    rawParameters: {},
    clientAddress: '192.0.2.7',
    receivedAt: 0,
  };
}

const refused = (code: string, description: string) => expect.objectContaining({ code, description });

describe('TransactionTokenExchangeHandler', () => {
  it('refuses a client not allowed transaction tokens as invalid_request', async () => {
    await expect(handlerWith().handler.exchange(request(), context(undefined, { ...gateway, transactionTokens: false }))).rejects.toEqual(
      refused('invalid_request', 'the client may not obtain transaction tokens'),
    );
  });

  it('refuses an audience other than the trust domain as invalid_target', async () => {
    await expect(handlerWith().handler.exchange(request({ targets: [TRUST_DOMAIN, 'api1'] }), context())).rejects.toEqual(
      refused('invalid_target', 'the audience of a transaction token is the trust domain, not api1'),
    );
  });

  it.each([
    ['request_context', { requestContext: '[1]' }],
    ['request_details', { requestDetails: `{"a":"${'x'.repeat(4096)}"}` }],
  ])('refuses a %s that is not a JSON object of at most 4 KiB as invalid_request', async (name, overrides) => {
    await expect(handlerWith().handler.exchange(request(overrides), context())).rejects.toEqual(
      expect.objectContaining({ code: 'invalid_request', description: expect.stringContaining(name) }),
    );
  });

  it.each([
    ['an invalid subject token', 'forged', 'subject_token is not valid: the token signature, issuer or lifetime is invalid'],
    ['a client token', 'm2m', 'the subject token does not represent a user'],
    ['a token whose may_act names another client', 'for-api1-only', 'the subject token does not allow this client to act for its subject (may_act)'],
  ])('refuses %s as invalid_request', async (_, subjectToken, description) => {
    await expect(handlerWith().handler.exchange(request({ subjectToken }), context())).rejects.toEqual(refused('invalid_request', description));
  });

  it("refuses a scope wider than the subject token's as invalid_scope", async () => {
    await expect(handlerWith().handler.exchange(request(), context({ names: ['api1', 'api2'], explicit: true }))).rejects.toEqual(
      refused('invalid_scope', "scope api2 is wider than the subject token's"),
    );
  });

  it('mints a token for the subject with the contexts, req_ip the client address, req_wl the client, no later than the subject token', async () => {
    const { handler, issued } = handlerWith();
    const grant = await handler.exchange(request({ requestContext: '{"req_ip":"6.6.6.6","channel":"web"}', requestDetails: '{"action":"pay"}' }), context());
    expect(issued).toEqual([
      {
        subject: '1',
        scopes: ['openid', 'api1'],
        requestingWorkloads: ['gateway'],
        transactionContext: { action: 'pay' },
        requestContext: { channel: 'web', req_ip: '192.0.2.7' },
        subjectToken: { expiresAt: alice.expiresAt, jwtId: alice.jwtId },
      },
    ]);
    expect(grant).toMatchObject({ subject: '1', scopes: ['openid', 'api1'] });
    expect(continuedGrant(grant.continuation)).toEqual({
      kind: 'self_issued',
      subject: '1',
      issuedTokenType: TXN_TOKEN_TYPE,
      token: { token: 'signed', tokenType: 'N_A', expiresIn: 60, scopes: ['openid', 'api1'], transactionId: 'txn-new' },
    });
  });

  it('defaults the scope to what the subject token and the client both allow', async () => {
    const grant = await handlerWith().handler.exchange(request(), context({ names: ['openid', 'api1', 'api2'], explicit: false }));
    expect(grant.scopes).toEqual(['openid', 'api1']);
  });

  it('replaces a transaction token: same txn, sub and contexts, req_wl extended, its subject token carried forward', async () => {
    const { handler, issued } = handlerWith();
    await handler.exchange(request({ subjectToken: 'txn-carrying', subjectTokenType: TXN_TOKEN_TYPE }), context({ names: ['api1'], explicit: true }));
    expect(issued).toEqual([
      {
        transactionId: 'txn-1',
        subject: '1',
        scopes: ['api1'],
        requestingWorkloads: ['gateway', 'gateway'],
        transactionContext: { action: 'checkout' },
        requestContext: { req_ip: '10.0.0.1' },
        subjectToken: { expiresAt: 1_900_000_030, jwtId: 'jti-of-alice' },
      },
    ]);
  });

  it.each([
    ['whose subject token has expired', 'txn-of-expired', [], 'the subject token of the transaction has expired'],
    ["whose trusted issuer's subject token has expired", 'txn-of-expired-external', [], 'the subject token of the transaction has expired'],
    ['whose subject token is revoked', 'txn-carrying', ['jti-of-alice'], 'the subject token of the transaction has been revoked'],
  ])('refuses to replace a transaction token %s as invalid_request', async (_, subjectToken, revoked, description) => {
    const { handler, issued } = handlerWith(revoked);
    await expect(handler.exchange(request({ subjectToken, subjectTokenType: TXN_TOKEN_TYPE }), context({ names: ['api1'], explicit: true }))).rejects.toEqual(
      refused('invalid_request', description),
    );
    expect(issued).toEqual([]);
  });

  it('replaces a transaction token without subject_token no later than the replaced token itself', async () => {
    const { handler, issued } = handlerWith();
    await handler.exchange(
      request({ subjectToken: 'txn', subjectTokenType: TXN_TOKEN_TYPE, requestContext: '{"x":1}' }),
      context({ names: ['api1'], explicit: true }),
    );
    expect(issued).toEqual([
      {
        transactionId: 'txn-1',
        subject: '1',
        scopes: ['api1'],
        requestingWorkloads: ['gateway', 'gateway'],
        transactionContext: { action: 'checkout' },
        requestContext: { req_ip: '10.0.0.1' },
        subjectToken: { expiresAt: replaced.expiresAt },
      },
    ]);
  });

  it('refuses an access token presented as a transaction token as invalid_request', async () => {
    await expect(handlerWith().handler.exchange(request({ subjectTokenType: TXN_TOKEN_TYPE }), context())).rejects.toEqual(
      refused('invalid_request', 'subject_token is not valid: the token is not a transaction token (typ)'),
    );
  });
});

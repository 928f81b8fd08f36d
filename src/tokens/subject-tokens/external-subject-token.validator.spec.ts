import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Client } from '../../identity/clients/client';
import { aliceAccessToken, demoResources, subjectTokenValidator, submit, testClient } from '../../grants/grant.fixtures';
import { AccessTokenExchangeHandler } from '../../grants/access-token.exchange-handler';
import type { TokenExchangeHandler } from '../../grants/token-exchange-handler';
import { TokenExchangeHandlers } from '../../grants/token-exchange-handlers';
import { JWT_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE, TXN_TOKEN_TYPE } from '../../grants/token-exchange-request';
import { TokenExchangeGrantValidator } from '../../grants/token-exchange.grant-validator';
import { OAuthError } from '../../protocol/oauth-error';
import type { User } from '../../identity/users/user';
import { ExternalSubjectTokenValidator } from './external-subject-token.validator';
import { ForeignJwtVerifier } from '../../identity/trusted-issuers/foreign-jwt.verifier';
import type { TrustedIssuer, TrustedIssuerRole } from '../../identity/trusted-issuers/trusted-issuer';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const IDP = 'https://idp.demo.example';
const api1 = testClient({ allowedGrantTypes: [TOKEN_EXCHANGE_GRANT_TYPE], allowedScopes: ['openid', 'profile', 'role', 'api2'] });
const stranger = testClient({ clientId: 'stranger', allowedGrantTypes: [TOKEN_EXCHANGE_GRANT_TYPE] });
const now = () => Math.floor(Date.now() / 1000);

function user(subjectId: string, claims: Record<string, unknown>, enabled = true): User {
  return { subjectId, username: `user-${subjectId}`, passwordHash: '', enabled, claims, roles: [] };
}
const USERS = [
  user('1', { email: 'alice@example.com' }),
  user('2', { email: 'bob@example.com' }, false),
  user('3', { email: 'twin@example.com' }),
  user('4', { email: 'twin@example.com' }),
];

describe('ExternalSubjectTokenValidator.validate', () => {
  let signingKey: PrivateKey;
  let otherKey: PrivateKey;
  let jwks: JSONWebKeySet;
  const issuers = new Map<string, TrustedIssuer>();
  const userLookups: [string, string][] = [];

  const validator = new ExternalSubjectTokenValidator(
    { find: async (issuer: string, role: TrustedIssuerRole) => (issuers.get(issuer)?.role === role ? issuers.get(issuer) : undefined) },
    { forIssuer: () => createLocalJWKSet(jwks) },
    new ForeignJwtVerifier(),
    {
      // Several users with one value match no one, as the repositories answer.
      async findByClaim(name: string, value: string) {
        userLookups.push([name, value]);
        const matching = USERS.filter((candidate) => candidate.claims[name] === value);
        return matching.length === 1 ? matching[0] : undefined;
      },
    },
  );

  const aliceAtIdp = (claims: JWTPayload = {}): JWTPayload => ({
    iss: IDP,
    aud: ['api1', 'web'],
    sub: 'idp|42',
    email: 'alice@example.com',
    iat: now(),
    exp: now() + 300,
    ...claims,
  });
  const sign = (claims: JWTPayload, key: PrivateKey = signingKey) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'idp-1' }).sign(key);
  const validate = async (claims: JWTPayload, client: Client = api1, key?: PrivateKey) => validator.validate(await sign(claims, key), client);
  const refusal = (description: string) => expect.objectContaining({ code: 'invalid_token', status: 401, description });

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    signingKey = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'idp-1', alg: 'ES256' }] };
    const subjectIssuer = (issuer: string, role: TrustedIssuerRole = 'subject'): TrustedIssuer => ({
      issuer,
      role,
      kind: role === 'subject' ? 'jwt' : 'kubernetes',
      keys: { type: 'inline', jwks },
      enabled: true,
      subject: { audience: 'api1', userClaim: 'email', identityScopes: ['openid', 'profile'], trustedBy: ['api1'] },
    });
    issuers.set(IDP, subjectIssuer(IDP));
    issuers.set('https://cluster.example', subjectIssuer('https://cluster.example', 'workload'));
  });
  beforeEach(() => (userLookups.length = 0));

  it('leaves a token whose iss is no trusted subject issuer to be judged as one of ours', async () => {
    await expect(validate(aliceAtIdp({ iss: 'https://idp.evil.example' }))).resolves.toBeUndefined();
    await expect(validate(aliceAtIdp({ iss: 'https://cluster.example' }))).resolves.toBeUndefined();
    await expect(validator.validate('not-a-jwt', api1)).resolves.toBeUndefined();
    await expect(validator.validate(`e30.${Buffer.from('["iss"]').toString('base64url')}.x`, api1)).resolves.toBeUndefined();
  });

  it('refuses a client that does not trust the issuer, before verifying anything', async () => {
    await expect(validate(aliceAtIdp({ aud: ['api1', 'stranger'] }), stranger)).rejects.toEqual(
      refusal(`the client does not trust the subject token's issuer ${IDP}`),
    );
    expect(userLookups).toEqual([]);
  });

  it('refuses a token signed with a key the issuer does not have', async () => {
    await expect(validate(aliceAtIdp(), api1, otherKey)).rejects.toEqual(refusal(`the subject token of ${IDP} is not valid: the signature does not verify`));
  });

  it("refuses a token whose aud lacks the issuer's expected audience", async () => {
    await expect(validate(aliceAtIdp({ aud: ['web', 'api2'] }))).rejects.toEqual(
      refusal(`the subject token of ${IDP} is not valid: claim aud is not acceptable`),
    );
  });

  it('refuses an expired token, one not yet valid and one without exp', async () => {
    await expect(validate(aliceAtIdp({ iat: now() - 600, exp: now() - 120 }))).rejects.toEqual(
      refusal(`the subject token of ${IDP} is not valid: the JWT has expired`),
    );
    await expect(validate(aliceAtIdp({ nbf: now() + 600 }))).rejects.toEqual(refusal(`the subject token of ${IDP} is not valid: claim nbf is not acceptable`));
    await expect(validate(aliceAtIdp({ exp: undefined }))).rejects.toEqual(refusal(`the subject token of ${IDP} is not valid: claim exp is not acceptable`));
    expect(userLookups).toEqual([]);
  });

  it('refuses a token whose claim matches no local user, a disabled one or several', async () => {
    const noMatch = refusal("no local user matches the subject token's email");
    await expect(validate(aliceAtIdp({ email: 'mallory@example.com' }))).rejects.toEqual(noMatch);
    await expect(validate(aliceAtIdp({ email: 'bob@example.com' }))).rejects.toEqual(noMatch);
    await expect(validate(aliceAtIdp({ email: 'twin@example.com' }))).rejects.toEqual(noMatch);
    expect(userLookups).toEqual([
      ['email', 'mallory@example.com'],
      ['email', 'bob@example.com'],
      ['email', 'twin@example.com'],
    ]);
  });

  it('looks no one up for a missing, empty, non-string or oversized claim', async () => {
    const noMatch = refusal("no local user matches the subject token's email");
    for (const email of [undefined, '', 42, ['alice@example.com'], 'a'.repeat(1001)]) await expect(validate(aliceAtIdp({ email }))).rejects.toEqual(noMatch);
    expect(userLookups).toEqual([]);
  });

  it('refuses a malformed may_act', async () => {
    await expect(validate(aliceAtIdp({ may_act: 'api1' }))).rejects.toEqual(refusal('the subject token may_act claim is malformed'));
  });

  it("reads the token as the matched local user's, with the issuer's identity scopes and the token's own lifetime and may_act", async () => {
    const [iat, exp] = [now() - 5, now() + 120];
    await expect(
      validate(
        aliceAtIdp({ jti: 'idp-jti', client_id: 'web', iat, exp, auth_time: 1_900_000_000, may_act: { client_id: 'api1' }, scope: 'openid profile role' }),
      ),
    ).resolves.toEqual({
      issuer: IDP,
      token: {
        jwtId: 'idp-jti',
        subject: '1',
        clientId: 'web',
        scopes: ['openid', 'profile'],
        audiences: ['api1', 'web'],
        issuedAt: iat,
        expiresAt: exp,
        authTime: 1_900_000_000,
        mayAct: { client_id: 'api1' },
      },
    });
  });

  describe('as the subject of a token exchange', () => {
    const ours = aliceAccessToken();
    const transactionTokens: TokenExchangeHandler = {
      subjectTokenType: JWT_TOKEN_TYPE,
      requestedTokenType: TXN_TOKEN_TYPE,
      exchange: async () => {
        throw new Error('not expected in this spec');
      },
    };
    const notOurs = {
      validate: async () => {
        throw OAuthError.invalidToken('not one of ours either');
      },
    };
    const handlers = new TokenExchangeHandlers();
    handlers.add(new AccessTokenExchangeHandler(subjectTokenValidator(notOurs, validator), notOurs));
    handlers.add(transactionTokens);
    const exchange = new TokenExchangeGrantValidator(handlers);
    const request = async (claims: JWTPayload, scope: string[], explicit = true) =>
      submit(exchange, {
        grantType: TOKEN_EXCHANGE_GRANT_TYPE,
        client: api1,
        parameters: { subject_token: await sign(claims), subject_token_type: JWT_TOKEN_TYPE },
        scopes: { names: scope, explicit },
        resources: demoResources,
        clientAddress: '127.0.0.1',
      });

    it("refuses an identity scope beyond the issuer's list, and drops it from a defaulted scope", async () => {
      await expect(request(aliceAtIdp(), ['role', 'api2'])).rejects.toEqual(
        expect.objectContaining({ code: 'invalid_scope', description: 'scope role was not granted to the subject token' }),
      );
      await expect(request(aliceAtIdp(), ['openid', 'profile', 'role', 'api2'], false)).resolves.toMatchObject({ scopes: ['openid', 'profile', 'api2'] });
    });

    it('names the exchanging client in act and never outlives the subject token', async () => {
      const exp = now() + 90;
      await expect(request(aliceAtIdp({ exp, auth_time: ours.authTime }), ['openid', 'api2'])).resolves.toEqual({
        subject: '1',
        scopes: ['openid', 'api2'],
        authenticationMethods: [TOKEN_EXCHANGE_GRANT_TYPE],
        delegation: {
          actor: { client_id: 'api1' },
          authTime: ours.authTime,
          expiresAtMost: exp,
          issuedTokenType: 'urn:ietf:params:oauth:token-type:access_token',
          subjectIssuer: IDP,
        },
        issuedTokenType: 'urn:ietf:params:oauth:token-type:access_token',
      });
    });

    it('turns a refusal into invalid_request', async () => {
      await expect(request(aliceAtIdp({ email: 'mallory@example.com' }), ['api2'])).rejects.toEqual(
        expect.objectContaining({
          code: 'invalid_request',
          status: 400,
          description: "the subject token is not valid: no local user matches the subject token's email",
        }),
      );
    });
  });
});

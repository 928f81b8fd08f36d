import { OAuthError } from '../../index';
import { AssertionAudienceRule } from './assertion-audience.rule';
import { AssertionIdentifierRule } from './assertion-identifier.rule';
import { AssertionLifetimeRule } from './assertion-lifetime.rule';
import { AssertionTypeRule } from './assertion-type.rule';
import { AuthenticationTimeRule } from './authentication-time.rule';
import { IdJagProfileRule } from './id-jag-profile.rule';
import { unverifiedIssuer } from './unverified-issuer';

const ISSUER = 'https://as.example';
const NOW = 1_800_000_000;

function refusal(check: () => unknown): { error: string; description?: string } | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return { error: error.code, description: error.description };
  }
}

describe('AssertionTypeRule (typ)', () => {
  const rule = new AssertionTypeRule();
  it.each([
    [{}, 'jwt'],
    [{ typ: 'JWT' }, 'jwt'],
    [{ typ: 'jwt' }, 'jwt'],
    [{ typ: 'oauth-id-jag+jwt' }, 'id-jag'],
    [{ typ: 'application/oauth-id-jag+jwt' }, 'id-jag'],
  ])('%j is %s', (header, profile) => expect(rule.profileOf(header)).toBe(profile));

  it.each([[{ typ: 'at+jwt' }], [{ typ: 'logout+jwt' }], [{ typ: 'txntoken+jwt' }], [{ typ: 7 }], [{ typ: '' }]])('refuses %j', (header) => {
    expect(refusal(() => rule.profileOf(header))).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('AssertionAudienceRule (rfc7523bis: sole aud)', () => {
  const rule = new AssertionAudienceRule(ISSUER);
  it.each([[ISSUER], [[ISSUER]]])('accepts aud %j', (aud) => expect(refusal(() => rule.check({ aud }))).toBeUndefined());
  it.each([
    [undefined, 'no aud'],
    [`${ISSUER}/connect/token`, 'not this issuer'],
    [[ISSUER, 'https://other.example'], 'sole value'],
    [[], 'not this issuer'],
    ['https://other.example', 'not this issuer'],
    [[[ISSUER]], 'not this issuer'],
  ])('refuses aud %j (%s)', (aud, named) => {
    expect(refusal(() => rule.check({ aud }))).toEqual({ error: 'invalid_grant', description: expect.stringContaining(named) as string });
  });
});

describe('AssertionLifetimeRule (exp, iat, nbf, maximum lifetime)', () => {
  const rule = new AssertionLifetimeRule(300, NOW);
  it.each([
    [{ iat: NOW, exp: NOW + 300 }],
    [{ iat: NOW - 100, exp: NOW + 10 }],
    [{ iat: NOW + 60, exp: NOW + 120 }],
    [{ iat: NOW, exp: NOW + 60, nbf: NOW + 60 }],
    [{ iat: NOW - 250, exp: NOW - 30 }],
  ])('accepts %j', (claims) => expect(rule.check(claims)).toBe(claims.exp));

  it.each([
    [{ iat: NOW }, 'no exp'],
    [{ iat: NOW, exp: '1800000300' }, 'no exp'],
    [{ iat: NOW - 200, exp: NOW - 61 }, 'expired'],
    [{ exp: NOW + 60 }, 'no iat'],
    [{ iat: NOW + 61, exp: NOW + 120 }, 'future'],
    [{ iat: NOW, exp: NOW + 301 }, 'maximum of 300 s'],
    [{ iat: NOW, exp: NOW }, 'before it was issued'],
    [{ iat: NOW, exp: NOW + 60, nbf: NOW + 61 }, 'not valid yet'],
    [{ iat: NOW, exp: NOW + 60, nbf: 'soon' }, 'not valid yet'],
  ])('refuses %j (%s)', (claims, named) => {
    expect(refusal(() => rule.check(claims))).toEqual({ error: 'invalid_grant', description: expect.stringContaining(named) as string });
  });

  it("applies the issuer's own maximum", () => {
    expect(refusal(() => new AssertionLifetimeRule(60, NOW).check({ iat: NOW, exp: NOW + 61 }))).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('AssertionIdentifierRule (jti)', () => {
  const rule = new AssertionIdentifierRule();
  it('returns the jti', () => expect(rule.check({ jti: 'abc' })).toBe('abc'));
  it.each([[{}], [{ jti: '' }], [{ jti: 42 }], [{ jti: 'x'.repeat(257) }]])('refuses case %#', (claims) => {
    expect(refusal(() => rule.check(claims))).toMatchObject({ error: 'invalid_grant', description: expect.stringContaining('jti') as string });
  });
});

describe('IdJagProfileRule (client_id, scope, resource)', () => {
  const rule = new IdJagProfileRule();
  it('reads the bounds', () => {
    expect(rule.check({ client_id: 'agent', scope: 'openid api1 api1', resource: 'https://api.example/' }, 'agent')).toEqual({
      scopes: ['openid', 'api1'],
      resources: ['https://api.example/'],
    });
    expect(rule.check({ client_id: 'agent', resource: ['https://a.example/', 'https://b.example/'] }, 'agent')).toEqual({
      resources: ['https://a.example/', 'https://b.example/'],
    });
    expect(rule.check({ client_id: 'agent' }, 'agent')).toEqual({});
  });

  it.each([
    [{}, 'no client_id'],
    [{ client_id: 'other' }, 'another client'],
    [{ client_id: 'agent', scope: ['api1'] }, 'scope'],
    [{ client_id: 'agent', resource: [] }, 'resource'],
    [{ client_id: 'agent', resource: [1] }, 'resource'],
    [{ client_id: 'agent', resource: Array.from({ length: 17 }, (_, i) => `https://r${i}.example/`) }, 'resources'],
  ])('refuses %j (%s)', (claims, named) => {
    expect(refusal(() => rule.check(claims, 'agent'))).toEqual({ error: 'invalid_grant', description: expect.stringContaining(named) as string });
  });
});

describe('unverifiedIssuer', () => {
  const jws = (payload: unknown) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2ln`;
  it('reads iss', () => expect(unverifiedIssuer(jws({ iss: ISSUER }))).toBe(ISSUER));
  it.each([['not-a-jwt'], [jws({})], [jws({ iss: 5 })], [jws(null)], ['e30.!!!.c2ln'], [`e30.${'a'.repeat(17000)}.c2ln`]])('refuses case %#', (token) => {
    expect(refusal(() => unverifiedIssuer(token))).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('AuthenticationTimeRule (auth_time)', () => {
  const rule = new AuthenticationTimeRule(NOW);
  it.each([
    [{}, undefined],
    [{ auth_time: NOW - 600 }, NOW - 600],
    [{ auth_time: NOW + 30 }, NOW],
  ])('%j gives %s', (claims, authTime) => expect(rule.check(claims)).toBe(authTime));
  it.each([[{ auth_time: 'yesterday' }], [{ auth_time: 1.5 }], [{ auth_time: -1 }], [{ auth_time: NOW + 61 }]])('refuses %j', (claims) => {
    expect(refusal(() => rule.check(claims))).toMatchObject({ error: 'invalid_grant' });
  });
});

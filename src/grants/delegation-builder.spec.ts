import type { ActorClaim, ValidatedAccessToken } from '../tokens/access-token/access-token';
import { OAuthError } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';
import { aliceAccessToken, demoResources, testClient } from './grant.fixtures';
import type { GrantContext } from './grant-validator';
import { delegateSubjectToken } from './subject-token-delegation';

const resources = demoResources;
const client = testClient({ allowedScopes: ['openid', 'profile', 'role', 'api2', 'offline_access'] });
const subjectToken = aliceAccessToken;

function context(scopes: RequestedScopes): GrantContext {
  return { grantType: 'delegation', client, scopes, resources, resourceIndicators: [], rawParameters: {}, clientAddress: '127.0.0.1', receivedAt: 0 };
}

/** An `act` chain of `depth` clients, outermost first: client-1 → client-2 → … */
function chain(depth: number, index = 1): ActorClaim {
  return index === depth ? { client_id: `client-${index}` } : { client_id: `client-${index}`, act: chain(depth, index + 1) };
}

const delegate = (token: ValidatedAccessToken, scopes: RequestedScopes = { names: ['api2'], explicit: true }) =>
  delegateSubjectToken(token, context(scopes), (description) => OAuthError.invalidGrant(description));
const error = (code: string, description: string) => expect.objectContaining({ code, description });

describe('delegateSubjectToken', () => {
  it.each([
    ['no sub', undefined],
    ['an empty sub', ''],
  ])('refuses a subject token with %s through the grant-specific error', (_, subject) => {
    expect(() => delegate(subjectToken({ subject }))).toThrow(error('invalid_grant', 'the subject token does not represent a user'));
    expect(() =>
      delegateSubjectToken(subjectToken({ subject }), context({ names: [], explicit: false }), (description) => OAuthError.invalidRequest(description)),
    ).toThrow(error('invalid_request', 'the subject token does not represent a user'));
  });

  it('refuses a DPoP-bound subject token delegated without a proof as invalid_dpop_proof, and delegates it with one (bound in, bound out)', () => {
    const bound = subjectToken({ confirmation: { jkt: 'user-key' } });
    expect(() => delegate(bound)).toThrow(error('invalid_dpop_proof', 'the subject token is DPoP-bound: send a DPoP proof of your own key'));
    const withProof = { ...context({ names: ['api2'], explicit: true }), dpop: { jkt: 'api-key' } };
    expect(delegateSubjectToken(bound, withProof, (description) => OAuthError.invalidGrant(description)).subject).toBe(bound.subject);
  });

  it('refuses a subject token whose act chain would grow beyond 8 actors', () => {
    expect(() => delegate(subjectToken({ actor: chain(8) }))).toThrow(error('invalid_grant', 'delegation chains are limited to 8 actors'));
  });

  it('refuses an explicitly requested identity scope the subject token lacks', () => {
    expect(() => delegate(subjectToken(), { names: ['api2', 'role'], explicit: true })).toThrow(
      error('invalid_scope', 'scope role was not granted to the subject token'),
    );
  });

  it('refuses an explicitly requested offline_access', () => {
    expect(() => delegate(subjectToken(), { names: ['api2', 'offline_access'], explicit: true })).toThrow(
      error('invalid_scope', 'delegated tokens never come with refresh tokens'),
    );
  });

  it("issues for the subject token's user, acting as the client, capped at its expiry and keeping its auth_time and acr", () => {
    expect(delegate(subjectToken({ acr: 'phr' }), { names: ['openid', 'api2'], explicit: true })).toEqual({
      subject: '1',
      scopes: ['openid', 'api2'],
      authenticationMethods: ['delegation'],
      delegation: { actor: { client_id: 'api1' }, authTime: 1_899_999_000, acr: 'phr', expiresAtMost: 1_900_000_900 },
    });
  });

  it("nests the subject token's act inside the new actor", () => {
    expect(delegate(subjectToken({ actor: { client_id: 'frontend-bff' } })).delegation.actor).toEqual({
      client_id: 'api1',
      act: { client_id: 'frontend-bff' },
    });
  });

  it('accepts a chain of exactly 8 actors', () => {
    expect(delegate(subjectToken({ actor: chain(7) })).delegation.actor).toEqual({ client_id: 'api1', act: chain(7) });
  });

  it('leaves identity scopes the subject token lacks out of the default set', () => {
    expect(delegate(subjectToken(), { names: ['openid', 'profile', 'role', 'api2'], explicit: false }).scopes).toEqual(['openid', 'profile', 'api2']);
  });
});

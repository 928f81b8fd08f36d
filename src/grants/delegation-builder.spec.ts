import type { ActorClaim } from '../tokens/access-token/access-token';
import type { SubjectToken } from '../tokens/subject-tokens/subject-token.validator';
import type { RequestedScopes } from '../protocol/scope';
import { buildDelegation } from './delegation-builder';
import { demoResources, testClient } from './grant.fixtures';

const resources = demoResources;
const client = testClient({ allowedScopes: ['openid', 'profile', 'role', 'api2', 'offline_access'] });

/** Alice's token as `SubjectTokenValidator` answers it. */
function subjectToken(overrides: Partial<SubjectToken> = {}): SubjectToken {
  return { subject: '1', scopes: ['openid', 'profile', 'api1'], authTime: 1_899_999_000, expiresAt: 1_900_000_900, ...overrides };
}

/** An `act` chain of `depth` clients, outermost first: client-1 → client-2 → … */
function chain(depth: number, index = 1): ActorClaim {
  return index === depth ? { client_id: `client-${index}` } : { client_id: `client-${index}`, act: chain(depth, index + 1) };
}

const delegate = (token: SubjectToken, scopes: RequestedScopes = { names: ['api2'], explicit: true }) =>
  buildDelegation(token, { grantType: 'delegation', client, scopes, resources });
const error = (code: string, description: string) => expect.objectContaining({ code, description });

describe('buildDelegation', () => {
  it('refuses a subject token whose act chain would grow beyond 8 actors', () => {
    expect(() => delegate(subjectToken({ act: chain(8) }))).toThrow(error('invalid_grant', 'delegation chains are limited to 8 actors'));
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
    expect(delegate(subjectToken({ act: { client_id: 'frontend-bff' } })).delegation.actor).toEqual({
      client_id: 'api1',
      act: { client_id: 'frontend-bff' },
    });
  });

  it('names the trusted issuer of an external subject token for the audit log', () => {
    expect(delegate(subjectToken({ issuer: 'https://idp.example' })).delegation.subjectIssuer).toBe('https://idp.example');
  });

  it('accepts a chain of exactly 8 actors', () => {
    expect(delegate(subjectToken({ act: chain(7) })).delegation.actor).toEqual({ client_id: 'api1', act: chain(7) });
  });

  it('leaves identity scopes the subject token lacks out of the default set', () => {
    expect(delegate(subjectToken(), { names: ['openid', 'profile', 'role', 'api2'], explicit: false }).scopes).toEqual(['openid', 'profile', 'api2']);
  });
});

import type { Client } from '../../identity/clients/client';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import type { User } from '../../identity/users/user';
import type { FormBody } from '../../protocol/form';
import { inspectParameters } from '../../protocol/inspected-parameters';
import type { CodeRequest } from '../../tokens/authorization/authorization-code.service';
import { AuthorizationParameters } from './authorization-parameters';
import { AuthorizeService } from './authorize.service';
import { ConsentRepository } from '../../tokens/authorization/consent.repository';

const ISSUER = 'https://id.example.com';
const CALLBACK = 'https://app.example/cb';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const spa = (overrides: Partial<Client> = {}): Client => ({
  clientId: 'spa',
  enabled: true,
  public: true,
  allowedGrantTypes: ['authorization_code'],
  allowedScopes: ['openid', 'profile'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 0,
  secrets: [],
  redirectUris: [CALLBACK],
  postLogoutRedirectUris: [],
  requireConsent: true,
  ...overrides,
});
const alice: User = { subjectId: '1', username: 'alice', passwordHash: '', enabled: true, claims: {}, roles: [] };
const session = (overrides: Partial<SignInSession> = {}): SignInSession => ({
  sessionId: 'sid-1',
  subject: '1',
  authTime: Math.floor(Date.now() / 1000) - 60,
  authenticationMethods: ['pwd'],
  expiresAt: new Date(Date.now() + 3_600_000),
  ...overrides,
});
const parameters = (overrides: FormBody = {}) =>
  inspectParameters(AuthorizationParameters, {
    client_id: 'spa',
    response_type: 'code',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    scope: 'openid profile',
    state: 'xyz',
    ...overrides,
  });

class MemoryConsents extends ConsentRepository {
  readonly allowed = new Map<string, readonly string[]>();
  async findScopes(subject: string, clientId: string): Promise<readonly string[]> {
    return this.allowed.get(`${subject} ${clientId}`) ?? [];
  }
  async allow(subject: string, clientId: string, scopes: readonly string[]): Promise<void> {
    this.allowed.set(`${subject} ${clientId}`, scopes);
  }
}

describe('AuthorizeService', () => {
  let consents: MemoryConsents;
  let issued: CodeRequest[];
  let pushedConsumed: boolean;
  let passkeyCount: (subject: string) => number;

  function service(client: Client | null = spa(), user: User = alice): AuthorizeService {
    return new AuthorizeService(
      { lookup: async (id: string) => (client !== null && id === client.clientId ? { client } : { problem: 'the client is unknown' }) },
      { catalog: { isKnownScope: (scope: string) => scope !== 'unknown', isIdentityScope: () => true, apiResourceByUri: () => undefined } },
      { findBySubjectId: async (subject: string) => (subject === user.subjectId ? user : undefined) },
      consents,
      {
        issue: async (request: CodeRequest) => {
          issued.push(request);
          return 'the-code';
        },
      },
      {
        redeem: async () => parameters(),
        keep: async () => undefined,
        consume: async () => pushedConsumed,
      },
      { issuer: ISSUER },
      { countOf: async (subject: string) => passkeyCount(subject) },
    );
  }

  beforeEach(() => {
    consents = new MemoryConsents();
    issued = [];
    pushedConsumed = true;
    passkeyCount = () => 1;
  });

  describe('authorize', () => {
    it('answers an unknown or disabled client on an error page, never at a redirect URI', async () => {
      expect(await service(null).authorize(parameters(), session())).toEqual({ kind: 'error_page', description: 'the client is unknown' });
      expect(await service(spa({ enabled: false })).authorize(parameters(), session())).toMatchObject({ kind: 'error_page' });
    });

    it('answers an unregistered redirect_uri on an error page', async () => {
      expect(await service().authorize(parameters({ redirect_uri: 'https://evil.example/cb' }), session())).toMatchObject({ kind: 'error_page' });
    });

    it('answers an invalid request at the trusted redirect URI, with state and iss (RFC 9207)', async () => {
      const outcome = await service().authorize(parameters({ scope: 'openid unknown' }), session());
      expect(outcome).toMatchObject({ kind: 'respond', target: { redirectUri: CALLBACK }, parameters: { error: 'invalid_scope', state: 'xyz', iss: ISSUER } });
      expect(issued).toEqual([]);
    });

    it('refuses a request a PAR-only client did not push', async () => {
      const outcome = await service(spa({ requirePushedAuthorizationRequests: true })).authorize(parameters(), session());
      expect(outcome).toMatchObject({
        kind: 'respond',
        parameters: { error: 'invalid_request', error_description: 'this client must push its authorization requests' },
      });
    });

    it('sends a user without a session, or a disabled user, to the login page', async () => {
      expect(await service().authorize(parameters(), undefined)).toMatchObject({ kind: 'login', carried: { client_id: 'spa', state: 'xyz' } });
      expect(await service(spa(), { ...alice, enabled: false }).authorize(parameters(), session())).toMatchObject({ kind: 'login' });
    });

    it('answers prompt=none without a session with login_required', async () => {
      expect(await service().authorize(parameters({ prompt: 'none' }), undefined)).toMatchObject({ kind: 'respond', parameters: { error: 'login_required' } });
    });

    it('asks to sign in again for prompt=login or an authentication older than max_age, unless the user just signed in', async () => {
      expect(await service().authorize(parameters({ prompt: 'login' }), session())).toMatchObject({ kind: 'login' });
      expect(await service().authorize(parameters({ max_age: '10' }), session())).toMatchObject({ kind: 'login' });
      const signedIn = await service().authorize(parameters({ prompt: 'login', max_age: '10' }), session(), { signedInNow: true });
      expect(signedIn).toMatchObject({ kind: 'consent' });
      expect(signedIn.kind === 'consent' && signedIn.carried).not.toHaveProperty('prompt');
      expect(signedIn.kind === 'consent' && signedIn.carried).not.toHaveProperty('max_age');
    });

    it('asks consent for scopes not allowed before, and answers prompt=none with consent_required', async () => {
      await consents.allow('1', 'spa', ['openid']);
      // One session object: two calls of session() may fall on different clock ticks.
      const signedIn = session();
      expect(await service().authorize(parameters(), signedIn)).toMatchObject({ kind: 'consent', session: signedIn });
      expect(await service().authorize(parameters({ prompt: 'none' }), session())).toMatchObject({
        kind: 'respond',
        parameters: { error: 'consent_required' },
      });
    });

    it('asks consent again for prompt=consent even when it was given', async () => {
      await consents.allow('1', 'spa', ['openid', 'profile']);
      expect(await service().authorize(parameters({ prompt: 'consent' }), session())).toMatchObject({ kind: 'consent' });
    });

    it('issues a code bound to the request once the user is signed in and has consented', async () => {
      await consents.allow('1', 'spa', ['openid', 'profile']);
      expect(await service().authorize(parameters({ nonce: 'n-1' }), session())).toEqual({
        kind: 'respond',
        target: expect.objectContaining({ redirectUri: CALLBACK, state: 'xyz' }),
        parameters: { code: 'the-code', state: 'xyz', iss: ISSUER },
      });
      expect(issued).toEqual([
        expect.objectContaining({ clientId: 'spa', redirectUri: CALLBACK, codeChallenge: CHALLENGE, nonce: 'n-1', scopes: ['openid', 'profile'] }),
      ]);
    });

    it('issues a code without asking a client that needs no consent', async () => {
      expect(await service(spa({ requireConsent: false })).authorize(parameters(), session())).toMatchObject({
        kind: 'respond',
        parameters: { code: 'the-code' },
      });
    });

    it('refuses a pushed request used already with invalid_request_uri', async () => {
      pushedConsumed = false;
      const uri = 'urn:ietf:params:oauth:request_uri:abc';
      const outcome = await service(spa({ requireConsent: false })).authorize(
        inspectParameters(AuthorizationParameters, { client_id: 'spa', request_uri: uri }),
        session(),
      );
      expect(outcome).toMatchObject({ kind: 'respond', parameters: { error: 'invalid_request_uri' } });
      expect(issued).toEqual([]);
    });
  });

  describe('step-up (RFC 9470)', () => {
    const first = spa({ requireConsent: false });

    it('answers a password session asked for phr with unmet_authentication_requirements when the user has no passkey', async () => {
      passkeyCount = () => 0;
      const outcome = await service(first).authorize(parameters({ acr_values: 'phr' }), session());
      expect(outcome).toMatchObject({ kind: 'respond', parameters: { error: 'unmet_authentication_requirements', state: 'xyz', iss: ISSUER } });
      expect(issued).toEqual([]);
    });

    it('answers prompt=none with login_required instead of asking for the passkey', async () => {
      const outcome = await service(first).authorize(parameters({ acr_values: 'phr', prompt: 'none' }), session());
      expect(outcome).toMatchObject({ kind: 'respond', parameters: { error: 'login_required' } });
    });

    it('asks a password session for a passkey within the session when acr_values, an essential acr claim or the client asks for phr', async () => {
      const claims = JSON.stringify({ id_token: { acr: { essential: true, values: ['phr'] } } });
      for (const [client, extra] of [
        [first, { acr_values: 'phr' }],
        [first, { claims }],
        [spa({ requireConsent: false, requirePhr: true }), { acr_values: 'pwd' }],
      ] as const) {
        const outcome = await service(client).authorize(parameters(extra), session());
        expect(outcome).toMatchObject({ kind: 'step_up', session: { sessionId: 'sid-1' } });
      }
      expect(issued).toEqual([]);
    });

    it('issues the code to a passkey session asked for phr or pwd, and to a password session asked for pwd', async () => {
      const passkey = session({ authenticationMethods: ['hwk', 'user'] });
      expect(await service(first).authorize(parameters({ acr_values: 'phr' }), passkey)).toMatchObject({ kind: 'respond', parameters: { code: 'the-code' } });
      expect(await service(first).authorize(parameters({ acr_values: 'pwd' }), passkey)).toMatchObject({ kind: 'respond', parameters: { code: 'the-code' } });
      expect(await service(first).authorize(parameters({ acr_values: 'pwd' }), session())).toMatchObject({ kind: 'respond', parameters: { code: 'the-code' } });
    });

    it('refuses a claims parameter that is not JSON with invalid_request', async () => {
      expect(await service(first).authorize(parameters({ claims: '{' }), session())).toMatchObject({
        kind: 'respond',
        parameters: { error: 'invalid_request' },
      });
    });
  });

  describe('consent', () => {
    it('answers a deny with access_denied at the redirect URI and remembers nothing', async () => {
      expect(await service().consent(parameters(), session(), false)).toMatchObject({ kind: 'respond', parameters: { error: 'access_denied', state: 'xyz' } });
      expect(consents.allowed.size).toBe(0);
    });

    it('remembers an allow for the user, client and scopes, and issues the code', async () => {
      expect(await service().consent(parameters(), session(), true)).toMatchObject({ kind: 'respond', parameters: { code: 'the-code' } });
      expect(await consents.findScopes('1', 'spa')).toEqual(['openid', 'profile']);
    });
  });
});

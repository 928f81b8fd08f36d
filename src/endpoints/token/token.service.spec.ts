import { continueWith } from '../../grants/grant-continuation';
import { GrantRunner } from './grant-runner';
import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import type { AuthenticatedClient, Client } from '../../identity/clients/client';
import { demoResources, testClient } from '../../grants/grant.fixtures';
import { grantError, type GrantContext, type GrantResult, type GrantValidator } from '../../grants/grant-validator';
import { GrantValidatorRegistry } from '../../grants/grant-validator.registry';
import type { DpopHeader } from '../../tokens/dpop/dpop-proof.verifier';
import type { FormBody } from '../../protocol/form';
import { OAuthError } from '../../protocol/oauth-error';
import { ResourceCatalog } from '../../identity/resources/resource-catalog';
import type { User } from '../../identity/users/user';
import type { TokenResponse } from './token-response';
import type { IssuingResult } from './token-response.generator';
import { TokenService } from './token.service';

const GRANT = 'urn:test:grant';

class NoParameters {}

/** A grant that returns (or throws) whatever the test gives it, and records the context it saw. */
class ScriptedGrant implements GrantValidator {
  readonly grantType = GRANT;
  readonly parameters = NoParameters;
  readonly seen: GrantContext[] = [];
  constructor(
    private readonly answer: (context: GrantContext) => GrantResult,
    readonly resourceIndicators = false,
    readonly publicClients = false,
    readonly signsIn = false,
    readonly refreshTokens = false,
  ) {}
  async validate(_: object, context: GrantContext): Promise<GrantResult> {
    this.seen.push(context);
    return this.answer(context);
  }
}

const users: Record<string, User> = {
  alice: { subjectId: 'alice', username: 'alice', enabled: true } as User,
  carol: { subjectId: 'carol', username: 'carol', enabled: false } as User,
};

function pipeline(
  answer: (context: GrantContext) => GrantResult,
  { resourceIndicators = false, catalog = demoResources, publicClients = false, signsIn = false, refreshTokens = false } = {},
) {
  const grant = new ScriptedGrant(answer, resourceIndicators, publicClients, signsIn, refreshTokens);
  const generated: IssuingResult[] = [];
  const bindings: unknown[] = [];
  const policies: unknown[] = [];
  const responses = {
    generate: async (result: IssuingResult, _grantType: string, _client: Client, binding?: unknown, policy?: unknown): Promise<TokenResponse> => {
      generated.push(result);
      bindings.push(binding);
      policies.push(policy);
      return { access_token: 'at', token_type: 'Bearer', expires_in: 60, scope: '' };
    },
  };
  const audit = new RecordingAuditSink();
  const dpop = {
    // A fake proof check: the header is the thumbprint, "bad" is refused.
    forTokenRequest: async (header: DpopHeader, { requireDpop }: Client) => {
      if (header === 'bad' || (header === undefined && requireDpop)) throw new OAuthError('invalid_dpop_proof', 'refused');
      return typeof header === 'string' ? { jkt: header } : undefined;
    },
  };
  const service = new TokenService(
    new GrantValidatorRegistry([grant]),
    { catalog },
    responses,
    audit,
    { findBySubjectId: async (subject) => users[subject] },
    dpop,
    new GrantRunner({ seconds: 1 }),
  );
  return { service, grant, generated, audit, bindings, policies };
}

const client = (overrides: Partial<Client> = {}): AuthenticatedClient => ({
  client: testClient({ clientId: 'partner', allowedGrantTypes: [GRANT], allowedScopes: ['openid', 'profile', 'api1', 'api2'], ...overrides }),
  method: 'client_secret_basic',
});
const request = (body: FormBody, authenticated = client()) => ({ body: { grant_type: GRANT, ...body }, authenticated });
const refused = (code: string, description?: string) => expect.objectContaining({ code, ...(description ? { description } : {}) });

describe('TokenService.requestToken', () => {
  const run = (service: TokenService, { body, authenticated }: ReturnType<typeof request>) => service.requestToken(body, authenticated, '192.0.2.1', 0);

  describe('the policy the validator declares', () => {
    it('refuses a public client a grant without publicClients, before the grant runs', async () => {
      const { service, grant } = pipeline(() => ({ subject: 'alice' }));
      const publicClient = { ...client(), method: 'none' as const };
      await expect(run(service, request({}, publicClient))).rejects.toEqual(refused('unauthorized_client', `a public client may not use grant_type ${GRANT}`));
      expect(grant.seen).toEqual([]);
    });

    it('serves a public client a grant with publicClients, whatever its grant type', async () => {
      const { service, generated } = pipeline(() => ({ subject: 'alice' }), { publicClients: true });
      await run(service, request({}, { ...client(), method: 'none' }));
      expect(generated).toHaveLength(1);
    });

    it('hands signsIn and refreshTokens to the response generator, false when absent', async () => {
      const declared = pipeline(() => ({ subject: 'alice' }), { signsIn: true, refreshTokens: true });
      await run(declared.service, request({}));
      const absent = pipeline(() => ({ subject: 'alice' }));
      await run(absent.service, request({}));
      expect([...declared.policies, ...absent.policies]).toEqual([
        { signsIn: true, refreshTokens: true },
        { signsIn: false, refreshTokens: false },
      ]);
    });

    it('answers a result that is no success or error 500 server_error, issuing nothing', async () => {
      const { service, generated } = pipeline(() => 42 as unknown as GrantResult);
      await expect(run(service, request({}))).rejects.toEqual(refused('server_error'));
      expect(generated).toEqual([]);
    });
  });

  describe('before the grant runs', () => {
    it('refuses a request without grant_type as invalid_request', async () => {
      const { service, grant } = pipeline(() => ({ subject: 'alice' }));
      await expect(service.requestToken({}, client(), '192.0.2.1')).rejects.toEqual(refused('invalid_request', 'grant_type is required'));
      expect(grant.seen).toEqual([]);
    });

    it('refuses a grant type no validator handles as unsupported_grant_type', async () => {
      const { service } = pipeline(() => ({ subject: 'alice' }));
      await expect(run(service, request({ grant_type: 'urn:other' }))).rejects.toEqual(refused('unsupported_grant_type'));
    });

    it('refuses a disabled client as invalid_client, whatever authenticated it', async () => {
      const { service, grant } = pipeline(() => ({ subject: 'alice' }));
      await expect(run(service, request({}, client({ enabled: false })))).rejects.toEqual(refused('invalid_client', 'the client is disabled'));
      expect(grant.seen).toEqual([]);
    });

    it('refuses a client not allowed the grant type as unauthorized_client', async () => {
      const { service } = pipeline(() => ({ subject: 'alice' }));
      await expect(run(service, request({}, client({ allowedGrantTypes: ['password'] })))).rejects.toEqual(refused('unauthorized_client'));
    });

    it('refuses a repeated parameter as invalid_request', async () => {
      const { service, grant } = pipeline(() => ({ subject: 'alice' }));
      await expect(run(service, request({ other: ['a', 'b'] }))).rejects.toEqual(refused('invalid_request', 'parameter other must not be repeated'));
      expect(grant.seen).toEqual([]);
    });

    it('refuses a requested scope the client is not allowed as invalid_scope', async () => {
      const { service } = pipeline(() => ({ subject: 'alice' }));
      await expect(run(service, request({ scope: 'api1 email' }))).rejects.toEqual(refused('invalid_scope', 'scope not allowed for this client: email'));
    });

    it('gives the grant the context: client, requested scopes, only its declared parameters', async () => {
      const { service, grant } = pipeline(() => ({ subject: 'alice' }));
      await run(service, request({ scope: 'api1', client_secret: 's' }));
      expect(grant.seen).toEqual([expect.objectContaining({ grantType: GRANT, scopes: { names: ['api1'], explicit: true }, rawParameters: {} })]);
    });
  });

  describe('what the grant returns, checked whatever the grant', () => {
    it('answers an error result as that OAuth error', async () => {
      const { service, generated, audit } = pipeline(() => grantError('invalid_grant', 'the key is unknown'));
      await expect(run(service, request({}))).rejects.toEqual(refused('invalid_grant', 'the key is unknown'));
      expect(generated).toEqual([]);
      expect(audit.events).toEqual([{ name: 'token.request_failed', grantType: GRANT, clientId: 'partner', error: 'invalid_grant' }]);
    });

    it('passes on what the grant throws unchanged, for the filter to answer (server_error without its message)', async () => {
      const fault = new Error('connection string postgres://secret');
      const { service } = pipeline(() => {
        throw fault;
      });
      await expect(run(service, request({}))).rejects.toBe(fault);
    });

    it('refuses a scope the client did not request as invalid_scope', async () => {
      const { service, generated } = pipeline(() => ({ subject: 'alice', scopes: ['api1', 'api2'] }));
      await expect(run(service, request({ scope: 'api1' }))).rejects.toEqual(refused('invalid_scope', 'scope api2 was not requested'));
      expect(generated).toEqual([]);
    });

    it('refuses a scope the client is not allowed, even when none was requested', async () => {
      const { service } = pipeline(() => ({ subject: 'alice', scopes: ['email'] }));
      await expect(run(service, request({}))).rejects.toEqual(refused('invalid_scope', 'scope email was not requested'));
    });

    it('refuses offline_access the client did not ask for', async () => {
      const { service } = pipeline(() => ({ subject: 'alice', scopes: ['offline_access'] }));
      const authenticated = client({ allowedScopes: ['api1', 'offline_access'] });
      await expect(run(service, request({}, authenticated))).rejects.toEqual(refused('invalid_scope', 'scope offline_access was not requested'));
    });

    it('refuses a self-issued token wider than the request', async () => {
      const token = { token: 't', tokenType: 'N_A' as const, expiresIn: 60, scopes: ['api2'] };
      const continuation = continueWith({ kind: 'self_issued', subject: 'alice', token, issuedTokenType: 'urn:x' });
      const { service } = pipeline(() => ({ subject: 'alice', continuation }));
      await expect(run(service, request({ scope: 'api1' }))).rejects.toEqual(refused('invalid_scope', 'scope api2 was not requested'));
    });

    it.each([
      ['disabled', 'carol'],
      ['unknown', 'mallory'],
    ])('refuses a token for a %s user with the grant’s subject error', async (_, subject) => {
      const { service, generated } = pipeline(() => ({ subject }));
      await expect(run(service, request({}))).rejects.toEqual(refused('invalid_grant', 'the user is unknown or disabled'));
      expect(generated).toEqual([]);
    });

    it('gives a success without scopes the requested ones', async () => {
      const { service, generated } = pipeline(() => ({ subject: 'alice' }));
      await run(service, request({ scope: 'openid api1' }));
      expect(generated).toEqual([{ subject: 'alice', scopes: ['openid', 'api1'] }]);
    });

    it('gives a success without scopes, when none was requested, every scope the client is allowed', async () => {
      const { service, generated } = pipeline(() => ({}));
      await run(service, request({}));
      expect(generated).toEqual([{ scopes: ['openid', 'profile', 'api1', 'api2'] }]);
    });

    it('hands a success within the request to the response generator as it is', async () => {
      const success = { subject: 'alice', scopes: ['api1'], claims: { tenant: 't1' }, responseParameters: { partner: 'p' } };
      const { service, generated } = pipeline(() => success);
      await expect(run(service, request({ scope: 'api1 api2' }))).resolves.toEqual({ access_token: 'at', token_type: 'Bearer', expires_in: 60, scope: '' });
      expect(generated).toEqual([success]);
    });
  });

  describe('resource indicators (RFC 8707)', () => {
    const API1_URI = 'https://api1.example/';
    const API2_URI = 'https://api2.example/';
    const catalog = new ResourceCatalog({
      identityResources: demoResources.resources.identityResources,
      apiResources: [
        { name: 'api1', scopes: ['api1'], uri: API1_URI },
        { name: 'api2', scopes: ['api2'], uri: API2_URI },
      ],
    });

    it('resolves a repeated resource for a grant that reads it, before the scope', async () => {
      const { service, grant } = pipeline(() => ({ audience: [API1_URI, API2_URI] }), { resourceIndicators: true, catalog });
      await run(service, request({ resource: [API1_URI, API2_URI] }));
      expect(grant.seen[0].resourceIndicators.map((api) => api.name)).toEqual(['api1', 'api2']);
      await expect(run(service, request({ resource: 'https://unknown.example/', scope: 'unknown' }))).rejects.toEqual(refused('invalid_target'));
    });

    it('refuses a success addressed to a resource that was not requested', async () => {
      const { service, generated } = pipeline(() => ({ audience: [API2_URI] }), { resourceIndicators: true, catalog });
      await expect(run(service, request({ resource: API1_URI }))).rejects.toEqual(refused('invalid_target'));
      expect(generated).toEqual([]);
    });

    it('lets a grant that does not read resource address known resources only, and refuses resource repeated', async () => {
      const known = pipeline(() => ({ audience: ['api1', API2_URI] }), { catalog });
      await run(known.service, request({}));
      expect(known.generated).toEqual([{ audience: ['api1', API2_URI], scopes: ['openid', 'profile', 'api1', 'api2'] }]);
      const unknown = pipeline(() => ({ audience: ['https://elsewhere.example/'] }), { catalog });
      await expect(run(unknown.service, request({}))).rejects.toEqual(refused('invalid_target'));
      await expect(run(known.service, request({ resource: [API1_URI, API2_URI] }))).rejects.toEqual(refused('invalid_request'));
    });
  });

  describe('DPoP', () => {
    it('gives the grant the proof key and binds the issued token to it', async () => {
      const { service, grant, bindings } = pipeline(() => ({ subject: 'alice' }));
      await service.requestToken({ grant_type: GRANT }, client(), '192.0.2.1', 0, 'jkt-1');
      expect(grant.seen[0].dpop).toEqual({ jkt: 'jkt-1' });
      expect(bindings).toEqual([{ jkt: 'jkt-1' }]);
    });

    it('refuses a bad proof, and no proof from a client that must send one, as invalid_dpop_proof before the grant runs', async () => {
      const { service, grant } = pipeline(() => ({ subject: 'alice' }));
      await expect(service.requestToken({ grant_type: GRANT }, client(), '192.0.2.1', 0, 'bad')).rejects.toEqual(refused('invalid_dpop_proof'));
      await expect(run(service, request({}, client({ requireDpop: true })))).rejects.toEqual(refused('invalid_dpop_proof'));
      expect(grant.seen).toEqual([]);
    });
  });
});

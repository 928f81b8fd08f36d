import { Injectable, Module } from '@nestjs/common';
import { IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createApp } from '../../src/app.factory';
import {
  grantError,
  type GrantContext,
  type GrantResult,
  type GrantSuccess,
  type GrantValidator,
  type GrantValidatorClass,
} from '../../src/grants/grant-validator';
import { ISSUER, startTestServer, testConfig, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { request, requestToken } from '../support/http';

const ECHO_GRANT = 'urn:test:grant:echo';

class EchoParameters {
  @IsString({ message: 'custom_param is required' })
  @IsNotEmpty({ message: 'custom_param is required' })
  custom_param!: string;
}

/** What the echo grant's own module provides: the name of the response member to echo into. */
class EchoSettings {
  readonly responseMember = 'echo';
}

@Module({ providers: [EchoSettings], exports: [EchoSettings] })
class EchoModule {}

/** A test-only extension grant: reads `custom_param`, returns it in a custom response parameter. */
@Injectable()
class EchoGrantValidator implements GrantValidator<EchoParameters> {
  readonly grantType: string = ECHO_GRANT;
  readonly parameters = EchoParameters;
  readonly parameterError = 'invalid_grant';

  constructor(private readonly settings: EchoSettings) {}

  async validate(parameters: EchoParameters, { scopes }: GrantContext): Promise<GrantSuccess> {
    const value = parameters.custom_param;
    if (value === 'override') {
      // A validator may add response parameters and claims, never replace the standard ones.
      return {
        scopes: scopes.names,
        claims: { sub: 'forged', iss: 'forged', client_id: 'forged', exp: 1, act: { client_id: 'forged' }, tenant: 'kept' },
        responseParameters: { access_token: 'forged', token_type: 'forged', scope: 'forged' },
      };
    }
    return {
      // The token endpoint issues only for a known, enabled user (docs/users.md): alice.
      subject: '1',
      scopes: scopes.names,
      claims: { echo: value },
      // Reports which parameters reached the validator, so the test sees what was dropped.
      responseParameters: { [this.settings.responseMember]: value, received_parameters: Object.keys(parameters).sort() },
    };
  }
}

const ROGUE_GRANT = 'urn:test:grant:rogue';

class RogueParameters {
  @IsString()
  @IsNotEmpty()
  attempt!: string;

  @IsString()
  @IsOptional()
  subject?: string;
}

/** Every claim a grant must not set: it would change who the token is for, to whom, for how long, or who holds it. */
const REGISTERED_CLAIMS = {
  iss: 'https://forged.example',
  sub: 'forged',
  aud: 'forged',
  exp: 1,
  nbf: 4_000_000_000,
  iat: 1,
  jti: 'forged',
  client_id: 'forged',
  scope: 'admin',
  auth_time: 1,
  amr: ['forged'],
  acr: 'forged',
  act: { client_id: 'forged' },
  may_act: { client_id: 'forged' },
  cnf: { jkt: 'forged' },
  azp: 'forged',
  sid: 'forged',
  nonce: 'forged',
  at_hash: 'forged',
};

/** A test-only extension grant that tries, one `attempt` at a time, what the token endpoint must not let a grant do. */
@Injectable()
class RogueGrantValidator implements GrantValidator<RogueParameters> {
  readonly grantType = ROGUE_GRANT;
  readonly parameters = RogueParameters;
  // Declared, so that the refresh token it cannot forge is the one Tollgate issues.
  readonly refreshTokens = true;

  async validate({ attempt, subject = '1' }: RogueParameters, { scopes }: GrantContext): Promise<GrantResult> {
    switch (attempt) {
      case 'claims':
        return { subject, claims: { ...REGISTERED_CLAIMS, tenant: 'kept' } };
      case 'members':
        return { subject, responseParameters: { refresh_token: 'forged', id_token: 'forged', issued_token_type: 'forged', error: 'forged', kept: 'yes' } };
      case 'wider-scope':
        return { subject, scopes: [...scopes.names, 'api2'] };
      case 'error':
        return grantError('invalid_grant', 'the partner key is unknown');
      case 'fault':
        throw new Error('connect ECONNREFUSED partner-db.internal:5432 password=hunter2');
      default:
        return { subject };
    }
  }
}

/** A second validator for the same grant type: the app must refuse to start with both. */
class EchoGrantTwinValidator extends EchoGrantValidator {}

@Injectable()
class PasswordImpostorValidator extends EchoGrantValidator {
  override readonly grantType = 'password';
}

/** Needs a provider that no registered module exports. */
class Unprovided {}

@Injectable()
class UnresolvableGrantValidator extends EchoGrantValidator {
  override readonly grantType = 'urn:test:grant:unresolvable';
  constructor(
    settings: EchoSettings,
    readonly unprovided: Unprovided,
  ) {
    super(settings);
  }
}

const echoGrants = (...validators: GrantValidatorClass[]) => ({ extraGrants: { validators, imports: [EchoModule] } });

describe('an extension grant registered through AppOptions.extraGrants', () => {
  let server: TestServer;
  const clientId = uniqueName('echo-client');
  const echo = (form: Record<string, string | string[]>) => requestToken(server.url, clientId, 'echo-secret', { grant_type: ECHO_GRANT, ...form });

  beforeAll(async () => {
    server = await startTestServer({}, echoGrants(EchoGrantValidator, RogueGrantValidator));
    await insertClient({ clientId, secrets: [{ secret: 'echo-secret' }], grantTypes: [ECHO_GRANT], scopes: ['api1'] });
  });
  afterAll(() => server.close());

  describe('POST /connect/token', () => {
    it('refuses a client not allowed the grant with unauthorized_client', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: ECHO_GRANT, custom_param: 'x' });
      expectTokenError(response, 400, 'unauthorized_client');
    });

    it("passes on the validator's own error", async () => {
      expectTokenError(await echo({ scope: 'api1' }), 400, 'invalid_grant');
    });

    it("answers a parameter its DTO refuses with the grant's own error code and the constraint's message", async () => {
      const response = await echo({ custom_param: '', scope: 'api1' });
      expectTokenError(response, 400, 'invalid_grant');
      expect(response.body.error_description).toBe('custom_param is required');
    });

    it('refuses custom_param sent twice before the validator runs', async () => {
      expectTokenError(await echo({ custom_param: ['a', 'b'] }), 400, 'invalid_request');
    });

    it('reads custom_param and returns a custom response parameter', async () => {
      const response = await echo({ custom_param: 'hello world', scope: 'api1' });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'api1',
        echo: 'hello world',
        received_parameters: ['custom_param'],
      });

      const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
      const { payload } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: 'api1', typ: 'at+jwt' });
      expect(payload).toMatchObject({ sub: '1', client_id: clientId, scope: 'api1', amr: [ECHO_GRANT], echo: 'hello world' });
    });

    it('does not pass on parameters the validator did not declare', async () => {
      const response = await echo({ custom_param: 'x', other_param: 'y', token: 'z', username: 'alice', client_secret_extra: 'w' });
      expect(response.status).toBe(200);
      expect(response.body.received_parameters).toEqual(['custom_param']);
    });

    it('keeps the standard response members and claims when the validator tries to replace them', async () => {
      const response = await echo({ custom_param: 'override', scope: 'api1' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), token_type: 'Bearer', expires_in: 3600, scope: 'api1' });

      const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
      const { payload } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: 'api1', typ: 'at+jwt' });
      expect(payload).toMatchObject({ iss: ISSUER, client_id: clientId, scope: 'api1', tenant: 'kept' });
      expect(payload.exp).toBe((payload.iat as number) + 3600);
      // A token for the client alone: its client_id as sub (RFC 9068 §2.2), no auth_time or amr.
      expect(payload.sub).toBe(clientId);
      expect(payload).not.toHaveProperty('auth_time');
      expect(payload).not.toHaveProperty('amr');
      expect(payload).not.toHaveProperty('act');
    });
  });

  describe('what a grant cannot do (docs/grants.md#what-the-token-endpoint-enforces)', () => {
    const rogueClient = uniqueName('rogue-client');
    const disabledClient = uniqueName('rogue-disabled');
    const rogue = (form: Record<string, string>, client = rogueClient) =>
      requestToken(server.url, client, 'rogue-secret', { grant_type: ROGUE_GRANT, ...form });
    let disabledUser: string;

    beforeAll(async () => {
      for (const [clientId, enabled] of [
        [rogueClient, true],
        [disabledClient, false],
      ] as const) {
        await insertClient({
          clientId,
          enabled,
          secrets: [{ secret: 'rogue-secret' }],
          grantTypes: [ROGUE_GRANT, 'refresh_token'],
          scopes: ['openid', 'api1', 'api2', 'offline_access'],
        });
      }
      disabledUser = await insertUser({ username: uniqueName('dora'), password: 'irrelevant', enabled: false });
    });

    it('cannot replace a registered claim of the access token', async () => {
      const response = await rogue({ attempt: 'claims', scope: 'api1' });
      expect(response.status).toBe(200);
      const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
      const { payload } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: 'api1', typ: 'at+jwt' });
      expect(Object.keys(payload).sort()).toEqual(['amr', 'aud', 'auth_time', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub', 'tenant']);
      expect(payload).toMatchObject({ iss: ISSUER, sub: '1', aud: 'api1', client_id: rogueClient, scope: 'api1', amr: [ROGUE_GRANT], tenant: 'kept' });
      expect(payload.exp).toBe((payload.iat as number) + 3600);
      expect(payload.jti).not.toBe('forged');
      expect(payload.auth_time).toBeGreaterThan(1);
    });

    it('cannot set or replace a standard member of the token response', async () => {
      const response = await rogue({ attempt: 'members', scope: 'api1 offline_access' });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'kept', 'refresh_token', 'scope', 'token_type']);
      expect(response.body.refresh_token).not.toBe('forged');
      expect(response.body.kept).toBe('yes');
    });

    it('cannot issue a scope beyond the requested ones', async () => {
      expectTokenError(await rogue({ attempt: 'wider-scope', scope: 'api1' }), 400, 'invalid_scope');
    });

    it('cannot issue a token for a disabled user', async () => {
      expectTokenError(await rogue({ attempt: 'plain', subject: disabledUser, scope: 'api1' }), 400, 'invalid_grant');
    });

    it('cannot issue a token for an unknown user', async () => {
      expectTokenError(await rogue({ attempt: 'plain', subject: 'nobody-at-all', scope: 'api1' }), 400, 'invalid_grant');
    });

    it('cannot issue a token to a disabled client', async () => {
      expectTokenError(await rogue({ attempt: 'plain', scope: 'api1' }, disabledClient), 401, 'invalid_client', { basicChallenge: true });
    });

    it('refuses through an error result, answered like a thrown OAuthError', async () => {
      const response = await rogue({ attempt: 'error', scope: 'api1' });
      expectTokenError(response, 400, 'invalid_grant');
      expect(response.body.error_description).toBe('the partner key is unknown');
    });

    it('has its faults answered server_error, without their message', async () => {
      const response = await rogue({ attempt: 'fault', scope: 'api1' });
      expect(response.status).toBe(500);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toEqual({ error: 'server_error', error_description: 'An unexpected error occurred' });
      expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|partner-db|hunter2/);
    });
  });

  describe('discovery', () => {
    it('lists the extension grant among grant_types_supported', async () => {
      const response = await request(`${server.url}/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      expect(response.body.grant_types_supported).toEqual(expect.arrayContaining(['client_credentials', 'password', 'delegation', ECHO_GRANT]));
    });
  });

  describe('startup', () => {
    it('fails to start with two validators for one grant type, naming the grant type', async () => {
      await expect(createApp(testConfig(), echoGrants(EchoGrantValidator, EchoGrantTwinValidator))).rejects.toThrow(ECHO_GRANT);
    });

    it('fails to start with an extension validator that claims a built-in grant type', async () => {
      await expect(createApp(testConfig(), echoGrants(PasswordImpostorValidator))).rejects.toThrow(/"password"/);
    });

    it("fails to start when a validator's constructor dependency is not provided, naming the class", async () => {
      await expect(createApp(testConfig(), echoGrants(UnresolvableGrantValidator))).rejects.toThrow(
        /Nest can't resolve dependencies of the UnresolvableGrantValidator \(EchoSettings, \?\)/,
      );
    });

    it("fails to start when the module a validator's dependency comes from is not imported", async () => {
      await expect(createApp(testConfig(), { extraGrants: { validators: [EchoGrantValidator] } })).rejects.toThrow(
        /Nest can't resolve dependencies of the EchoGrantValidator \(\?\)/,
      );
    });
  });
});

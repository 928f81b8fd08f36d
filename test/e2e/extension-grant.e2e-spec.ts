import { Injectable, Module } from '@nestjs/common';
import { IsNotEmpty, IsString } from 'class-validator';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createApp } from '../../src/app.factory';
import type { GrantContext, GrantSuccess, GrantValidator, GrantValidatorClass } from '../../src/grants/grant-validator';
import { ISSUER, startTestServer, testConfig, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
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
    server = await startTestServer({}, echoGrants(EchoGrantValidator));
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

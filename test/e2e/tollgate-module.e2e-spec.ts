import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsString, MaxLength } from 'class-validator';
import type { AppConfig } from '../../src/platform/config/app.config';
import type { GrantContext, GrantSuccess, GrantValidator } from '../../src/grants/grant-validator';
import { OAuthError } from '../../src/protocol/oauth-error';
import { TollgateModule } from '../../src/tollgate.module';
import { testConfig } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, request, requestToken } from '../support/http';

const TICKET_GRANT = 'urn:test:grant:legacy-ticket';

/** The host application's own configuration service, from which Tollgate's configuration is computed. */
@Injectable()
class HostSettings {
  tollgateConfig(): AppConfig {
    return testConfig();
  }
  ticketOwner(ticket: string): string | undefined {
    return ticket === 'ticket-of-alice' ? '1' : undefined;
  }
}

@Module({ providers: [HostSettings], exports: [HostSettings] })
class HostSettingsModule {}

class TicketParameters {
  @IsString({ message: 'ticket is required' })
  @MaxLength(100, { message: 'ticket is required' })
  ticket!: string;
}

@Injectable()
class LegacyTicketGrantValidator implements GrantValidator<TicketParameters> {
  readonly grantType = TICKET_GRANT;
  readonly parameters = TicketParameters;

  constructor(private readonly settings: HostSettings) {}

  async validate({ ticket }: TicketParameters, { scopes }: GrantContext): Promise<GrantSuccess> {
    const subject = this.settings.ticketOwner(ticket);
    if (subject === undefined) throw OAuthError.invalidGrant('unknown ticket');
    return { subject, scopes: scopes.names };
  }
}

/** A grant module of the host: its validator's dependency comes from the host's own module. */
@Module({ imports: [HostSettingsModule], providers: [LegacyTicketGrantValidator], exports: [LegacyTicketGrantValidator] })
class LegacyTicketModule {}

@Controller('host')
class HostController {
  @Get('hello')
  hello(): { hello: string } {
    return { hello: 'from the host application' };
  }
}

@Module({
  imports: [
    TollgateModule.forRootAsync({
      imports: [HostSettingsModule],
      inject: [HostSettings],
      useFactory: (settings: HostSettings) => settings.tollgateConfig(),
      grants: [LegacyTicketModule],
    }),
  ],
  controllers: [HostController],
})
class HostModule {}

describe('TollgateModule.forRootAsync in an application of its own', () => {
  let app: NestFastifyApplication;
  let url: string;
  const clientId = uniqueName('ticket-client');

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(HostModule, new FastifyAdapter(), { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = await app.getUrl();
    await insertClient({ clientId, grantTypes: [TICKET_GRANT], scopes: ['api1'], secrets: [{ secret: 'ticket-secret' }] });
  });

  afterAll(async () => {
    await app?.close();
  });

  it("serves a token through the host module's grant, with the host's dependencies", async () => {
    const response = await requestToken(url, clientId, 'ticket-secret', { grant_type: TICKET_GRANT, ticket: 'ticket-of-alice', scope: 'api1' });

    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' },
    });
    expectTokenSuccessHeaders(response);
    expect(jwtPayload(response.body.access_token)).toMatchObject({ sub: '1', client_id: clientId, amr: [TICKET_GRANT] });
  });

  it("renders the grant's refusal as an OAuth error", async () => {
    const response = await requestToken(url, clientId, 'ticket-secret', { grant_type: TICKET_GRANT, ticket: 'ticket-of-nobody' });

    expectTokenError(response, 400, 'invalid_grant');
    expect(response.body.error_description).toBe('unknown ticket');
  });

  it("serves the host's own routes beside Tollgate's", async () => {
    const response = await request(`${url}/host/hello`);

    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { hello: 'from the host application' } });
  });
});

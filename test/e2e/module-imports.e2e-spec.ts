import { Injectable, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccessTokenModule } from '../../src/access-token/access-token.module';
import { AuditSink } from '../../src/audit/audit-event';
import { AuditModule } from '../../src/audit/audit.module';
import { AuthorizeModule } from '../../src/authorize/authorize.module';
import { ClientAuthModule } from '../../src/client-auth/client-auth.module';
import { ClientRegistrationModule } from '../../src/client-registration/client-registration.module';
import { RegistrationTokensModule } from '../../src/client-registration/registration-tokens.module';
import { ClientsModule } from '../../src/clients/clients.module';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseMonitoringModule } from '../../src/database/database-monitoring.module';
import { DatabaseModule } from '../../src/database/database.module';
import { DeviceAuthorizationEndpointModule } from '../../src/device-authorization-endpoint/device-authorization-endpoint.module';
import { DeviceAuthorizationModule } from '../../src/device-authorization/device-authorization.module';
import { DiscoveryModule } from '../../src/discovery/discovery.module';
import { BUILT_IN_GRANTS } from '../../src/grants/built-in-grants';
import { GrantsModule } from '../../src/grants/grants.module';
import { TokenExchangeModule } from '../../src/grants/token-exchange.module';
import { HealthModule } from '../../src/health/health.module';
import { IdTokenModule } from '../../src/id-token/id-token.module';
import { InteractionModule } from '../../src/interaction/interaction.module';
import { IntrospectionModule } from '../../src/introspection/introspection.module';
import { InventoryModule } from '../../src/inventory/inventory.module';
import { PushedAuthorizationModule } from '../../src/pushed-authorization/pushed-authorization.module';
import { KeysModule } from '../../src/keys/keys.module';
import { MetricsModule } from '../../src/metrics/metrics.module';
import { RateLimitModule } from '../../src/rate-limit/rate-limit.module';
import { RefreshTokensModule } from '../../src/refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../../src/resources/resources.module';
import { RevocationModule } from '../../src/revocation/revocation.module';
import { SessionsModule } from '../../src/sessions/sessions.module';
import { TokenModule } from '../../src/token/token.module';
import { SubjectIssuersModule } from '../../src/trusted-issuers/subject-issuers.module';
import { TrustedIssuersModule } from '../../src/trusted-issuers/trusted-issuers.module';
import { TransactionTokensModule } from '../../src/txn-tokens/txn-tokens.module';
import { UserInfoModule } from '../../src/userinfo/userinfo.module';
import { UsersModule } from '../../src/users/users.module';
import { testConfig } from '../support/create-test-app';

const grants = GrantsModule.register(BUILT_IN_GRANTS);

/** Every module of src/, as an application would import it. */
const MODULES: [string, Type | DynamicModule][] = [
  ['AccessTokenModule', AccessTokenModule],
  ['AuditModule', AuditModule],
  ['AuthorizeModule', AuthorizeModule],
  ['ClientAuthModule', ClientAuthModule],
  ['ClientRegistrationModule', ClientRegistrationModule],
  ['ClientsModule', ClientsModule],
  ['DatabaseMonitoringModule', DatabaseMonitoringModule],
  ['DeviceAuthorizationModule', DeviceAuthorizationModule],
  ['DeviceAuthorizationEndpointModule', DeviceAuthorizationEndpointModule],
  ['DiscoveryModule', DiscoveryModule.register(grants)],
  ['GrantsModule', grants],
  ['TokenExchangeModule', TokenExchangeModule],
  ['HealthModule', HealthModule],
  ['IdTokenModule', IdTokenModule],
  ['InteractionModule', InteractionModule],
  ['IntrospectionModule', IntrospectionModule],
  ['InventoryModule', InventoryModule],
  ['KeysModule', KeysModule],
  ['PushedAuthorizationModule', PushedAuthorizationModule],
  ['MetricsModule', MetricsModule],
  ['RateLimitModule', RateLimitModule],
  ['RefreshTokensModule', RefreshTokensModule],
  ['RegistrationTokensModule', RegistrationTokensModule],
  ['ResourcesModule', ResourcesModule],
  ['RevocationModule', RevocationModule],
  ['SessionsModule', SessionsModule],
  ['TokenModule', TokenModule.register(grants)],
  ['SubjectIssuersModule', SubjectIssuersModule],
  ['TrustedIssuersModule', TrustedIssuersModule],
  ['TransactionTokensModule', TransactionTokensModule],
  ['UserInfoModule', UserInfoModule],
  ['UsersModule', UsersModule],
];

/** Starts `module` beside configuration and the database only, as an operator command does (scripts/operator-context.ts). */
async function startAlone(module: Type | DynamicModule): Promise<void> {
  const app = await NestFactory.createApplicationContext(
    { module: class StandaloneModule {}, imports: [ConfigModule.forRoot(testConfig()), DatabaseModule.forRoot(), module] },
    { logger: false, abortOnError: false },
  );
  await app.close();
}

/** Only configuration is global (docs/development.md): each module imports what its providers, controllers and guards use. */
describe('each module on its own', () => {
  it.each(MODULES)('%s starts with only configuration and the database beside it', async (_name, module) => {
    await expect(startAlone(module)).resolves.toBeUndefined();
  });

  it('refuses a provider whose module does not import what it needs, though another module does', async () => {
    @Injectable()
    class AuditReader {
      constructor(readonly audit: AuditSink) {}
    }
    const consumer = { module: class ConsumerModule {}, providers: [AuditReader] };
    const boot = NestFactory.createApplicationContext(
      { module: class SiblingsModule {}, imports: [ConfigModule.forRoot(testConfig()), AuditModule, consumer] },
      { logger: false, abortOnError: false },
    );
    await expect(boot).rejects.toThrow(/Nest can't resolve dependencies of the AuditReader \(\?\)/);
  });
});

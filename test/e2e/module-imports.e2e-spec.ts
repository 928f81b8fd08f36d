import { Injectable, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccessTokenModule } from '../../src/tokens/access-token/access-token.module';
import { AuditSink } from '../../src/platform/audit/audit-event';
import { AuditModule } from '../../src/platform/audit/audit.module';
import { AuthorizeModule } from '../../src/tokens/authorization/authorize.module';
import { AuthorizationEndpointModule } from '../../src/endpoints/authorize/authorization-endpoint.module';
import { ClientAuthModule } from '../../src/identity/client-auth/client-auth.module';
import { ClientRegistrationModule } from '../../src/endpoints/client-registration/client-registration.module';
import { RegistrationTokensModule } from '../../src/endpoints/client-registration/registration-tokens.module';
import { ClientsModule } from '../../src/identity/clients/clients.module';
import { ConfigModule } from '../../src/platform/config/config.module';
import { DatabaseMonitoringModule } from '../../src/platform/database/database-monitoring.module';
import { DatabaseModule } from '../../src/platform/database/database.module';
import { DeviceAuthorizationEndpointModule } from '../../src/endpoints/device-authorization/device-authorization-endpoint.module';
import { DeviceAuthorizationModule } from '../../src/tokens/device-authorization/device-authorization.module';
import { DiscoveryModule } from '../../src/endpoints/discovery/discovery.module';
import { BUILT_IN_GRANT_MODULES, TokenExchangeGrantModule, TransactionTokenExchangeModule } from '../../src/grants/built-in-grants';
import { GrantServicesModule } from '../../src/grants/grant-services.module';
import { GrantsModule } from '../../src/grants/grants.module';
import { HealthModule } from '../../src/endpoints/health/health.module';
import { IdTokenModule } from '../../src/tokens/id-token/id-token.module';
import { InteractionModule } from '../../src/endpoints/interaction/interaction.module';
import { IntrospectionModule } from '../../src/endpoints/introspection/introspection.module';
import { InventoryModule } from '../../cli/inventory/inventory.module';
import { PushedAuthorizationModule } from '../../src/endpoints/pushed-authorization/pushed-authorization.module';
import { KeysModule } from '../../src/tokens/keys/keys.module';
import { MetricsModule } from '../../src/platform/metrics/metrics.module';
import { RateLimitModule } from '../../src/platform/rate-limit/rate-limit.module';
import { RefreshTokensModule } from '../../src/tokens/refresh-tokens/refresh-tokens.module';
import { ResourcesModule } from '../../src/identity/resources/resources.module';
import { RevocationModule } from '../../src/endpoints/revocation/revocation.module';
import { SessionsModule } from '../../src/identity/sessions/sessions.module';
import { SignalDeliveryModule } from '../../src/tokens/signal-delivery/signal-delivery.module';
import { SignalsModule } from '../../src/identity/signals/signals.module';
import { SsfModule } from '../../src/endpoints/ssf/ssf.module';
import { TokenModule } from '../../src/endpoints/token/token.module';
import { SubjectIssuersModule } from '../../src/tokens/subject-tokens/subject-issuers.module';
import { TrustedIssuersModule } from '../../src/identity/trusted-issuers/trusted-issuers.module';
import { TransactionTokensModule } from '../../src/tokens/txn-tokens/txn-tokens.module';
import { UserInfoModule } from '../../src/endpoints/userinfo/userinfo.module';
import { UsersModule } from '../../src/identity/users/users.module';
import { CrossDomainGrantsModule } from '../../src/grants/cross-domain/cross-domain-grants.module';
import { PartnersModule } from '../../src/identity/partners/partners.module';
import { TokenSignerModule } from '../../src/grants/token-signer.module';
import { testConfig } from '../support/create-test-app';

const grants = GrantsModule.register({ modules: BUILT_IN_GRANT_MODULES });

/** Every module of src/, as an application would import it. */
const MODULES: [string, Type | DynamicModule][] = [
  ['AccessTokenModule', AccessTokenModule],
  ['AuditModule', AuditModule],
  ['AuthorizationEndpointModule', AuthorizationEndpointModule],
  ['AuthorizeModule', AuthorizeModule],
  ['ClientAuthModule', ClientAuthModule],
  ['ClientRegistrationModule', ClientRegistrationModule],
  ['ClientsModule', ClientsModule],
  ['DatabaseMonitoringModule', DatabaseMonitoringModule],
  ['DeviceAuthorizationModule', DeviceAuthorizationModule],
  ['DeviceAuthorizationEndpointModule', DeviceAuthorizationEndpointModule],
  ['DiscoveryModule', DiscoveryModule.register(grants)],
  ['GrantsModule', grants],
  ['TokenExchangeGrantModule', TokenExchangeGrantModule],
  ['CrossDomainGrantsModule', CrossDomainGrantsModule],
  ['PartnersModule', PartnersModule],
  ['TokenSignerModule', TokenSignerModule],
  ['TransactionTokenExchangeModule', TransactionTokenExchangeModule],
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
  ['SignalDeliveryModule', SignalDeliveryModule],
  ['SignalsModule', SignalsModule],
  ['SsfModule', SsfModule],
  ['TokenModule', TokenModule.register(grants)],
  ['SubjectIssuersModule', SubjectIssuersModule],
  ['TrustedIssuersModule', TrustedIssuersModule],
  ['TransactionTokensModule', TransactionTokensModule],
  ['UserInfoModule', UserInfoModule],
  ['UsersModule', UsersModule],
];

/** Starts `module` beside configuration, the grants' token services and the database only, as an operator command does (cli/operator-context.ts). */
async function startAlone(module: Type | DynamicModule): Promise<void> {
  const app = await NestFactory.createApplicationContext(
    { module: class StandaloneModule {}, imports: [ConfigModule.forRoot(testConfig()), GrantServicesModule, DatabaseModule.forRoot(), module] },
    { logger: false, abortOnError: false },
  );
  await app.close();
}

/** Only configuration and the grants' token services are global (docs/development.md): each module imports what its providers, controllers and guards use. */
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

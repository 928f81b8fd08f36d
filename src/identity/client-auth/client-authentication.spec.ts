import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import { TollgateMetrics } from '../../platform/metrics/metrics';
import { ClientAuthThrottle } from '../../platform/rate-limit/client-auth.throttle';
import { MemoryCounterStore } from '../../platform/rate-limit/memory-counter-store';
import { OAuthError } from '../../protocol/oauth-error';
import type { AuthenticatedClient, ClientAuthMethodName } from '../clients/client';
import { clientAuthFailed } from './client-auth-failure';
import type { ClientAuthMethod, ClientAuthRequest } from './client-auth-method';
import { ClientAuthentication } from './client-authentication';
import { ClientAuthenticator } from './client-authenticator';

/** `client_secret` right, wrong (invalid_client) or `malformed` (invalid_request); counts the checks. */
class FakeSecretMethod implements ClientAuthMethod {
  checked = 0;

  constructor(private readonly name: ClientAuthMethodName = 'client_secret_post') {}

  methodName(): ClientAuthMethodName {
    return this.name;
  }
  carries(request: ClientAuthRequest): boolean {
    return request.body.client_secret !== undefined;
  }
  claimedClientId(request: ClientAuthRequest): string | undefined {
    return request.body.client_id as string | undefined;
  }
  async authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    this.checked++;
    if (request.body.client_secret === 'malformed') throw OAuthError.invalidRequest('malformed');
    if (request.body.client_secret !== 'right') throw clientAuthFailed();
    return { client: client(String(request.body.client_id)), method: this.name };
  }
}

function client(clientId: string): AuthenticatedClient['client'] {
  return {
    clientId,
    enabled: true,
    allowedGrantTypes: [],
    allowedScopes: [],
    accessTokenLifetimeSeconds: 1,
    refreshTokenLifetimeSeconds: 1,
    secrets: [],
    redirectUris: [],
    postLogoutRedirectUris: [],
    requireConsent: false,
  };
}

const call = (secret: string, address = '192.0.2.66') => ({
  authorization: undefined,
  body: { client_id: 'm2m', client_secret: secret },
  endpoint: 'token' as const,
  address,
});

describe('ClientAuthentication', () => {
  let method: FakeSecretMethod;
  let audit: RecordingAuditSink;
  let metrics: TollgateMetrics;
  let authentication: ClientAuthentication;
  const create = (name?: ClientAuthMethodName) => {
    method = new FakeSecretMethod(name);
    audit = new RecordingAuditSink();
    metrics = new TollgateMetrics({ pool: () => undefined });
    const limits = { windowSeconds: 60, failuresPerClient: 3, failuresWithoutClient: 3, perClient: 0, perAddress: 0 };
    authentication = new ClientAuthentication(new ClientAuthenticator([method]), new ClientAuthThrottle(new MemoryCounterStore(), limits), audit, metrics);
  };
  beforeEach(() => create());
  const counted = async (outcome: string) =>
    (await metrics.clientAuthentications.get()).values.filter((value) => value.labels.outcome === outcome).reduce((sum, value) => sum + value.value, 0);

  describe('authenticate', () => {
    it('refuses a wrong secret, audits it without the secret and counts it as a failure', async () => {
      await expect(authentication.authenticate(call('guess'))).rejects.toMatchObject({ code: 'invalid_client' });
      expect(audit.events).toEqual([
        { name: 'client.authentication_failed', clientId: 'm2m', method: 'client_secret_post', address: '192.0.2.66', error: 'client authentication failed' },
      ]);
      expect(await counted('failure')).toBe(1);
    });

    it("never holds back a busy client's own requests in flight at once, whatever the failure budget", async () => {
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => authentication.authenticate(call('right'))));
      expect(results.map((result) => result.status)).toEqual(Array(10).fill('fulfilled'));
      expect(method.checked).toBe(10);
    });

    it('refuses even the right secret once the budget is used up, from that address only', async () => {
      for (let i = 0; i < 3; i++) await authentication.authenticate(call('guess')).catch(() => undefined);
      await expect(authentication.authenticate(call('right'))).rejects.toMatchObject({ status: 429 });
      await expect(authentication.authenticate(call('right', '192.0.2.10'))).resolves.toMatchObject({ client: { clientId: 'm2m' } });
    });

    it('counts neither a success nor a malformed request as a failure', async () => {
      for (let i = 0; i < 5; i++) await authentication.authenticate(call('right'));
      for (let i = 0; i < 5; i++) await expect(authentication.authenticate(call('malformed'))).rejects.toMatchObject({ code: 'invalid_request' });
      for (let i = 0; i < 3; i++) await authentication.authenticate(call('guess')).catch(() => undefined);
      expect(method.checked).toBe(13);
      expect(await counted('success')).toBe(5);
      expect(audit.events).toHaveLength(3);
    });

    it('never holds back a public client naming itself (method none)', async () => {
      create('none');
      for (let i = 0; i < 10; i++) await authentication.authenticate(call('guess')).catch(() => undefined);
      expect(method.checked).toBe(10);
    });
  });
});

import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { TollgateMetrics } from '../../platform/metrics/metrics';
import { ClientAuthThrottle } from '../../platform/rate-limit/client-auth.throttle';
import { annotateSpan } from '../../platform/tracing/spans';
import { singleParameter } from '../../protocol/form';
import { OAuthError } from '../../protocol/oauth-error';
import type { AuthenticatedClient, ClientAuthMethodName } from '../clients/client';
import type { ClientAuthRequest } from './client-auth-method';
import { ClientAuthenticator, type ClientAuthAttempt } from './client-authenticator';

// Metric labels: the client_secret_* methods as basic and post, so that no label or value says "secret".
const METRIC_LABELS: Partial<Record<ClientAuthMethodName, string>> = { client_secret_basic: 'basic', client_secret_post: 'post' };
const metricLabel = (method: ClientAuthMethodName | undefined) => (method === undefined ? 'missing' : (METRIC_LABELS[method] ?? method));

/** A request to authenticate, with the address it came from (Fastify's `request.ip`, docs/throttling.md). */
export interface ClientAuthCall extends ClientAuthRequest {
  readonly address: string;
}

/**
 * Client authentication as the endpoints see it (docs/client-authentication.md): `ClientAuthenticator`
 * checks the credentials within the throttle of docs/throttling.md, and every outcome is counted in the
 * metrics and failures are audited.
 */
@Injectable()
export class ClientAuthentication {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly throttle: ClientAuthThrottle,
    private readonly audit: AuditSink,
    private readonly metrics: TollgateMetrics,
  ) {}

  async authenticate(call: ClientAuthCall): Promise<AuthenticatedClient> {
    const attempt = this.authenticator.identify(call);
    const clientId = throttledClientId(attempt, call);
    // A public client naming itself has no secret to guess: never refused, never counted, so that a
    // neighbour's failures cannot stop the client's other users (their codes are 128-bit, PKCE-bound).
    const guessable = attempt.method !== 'none';
    if (guessable) await this.throttle.admit(call.address, clientId);
    let authenticated: AuthenticatedClient;
    try {
      authenticated = await attempt.verify();
    } catch (error) {
      if (isAuthenticationFailure(error)) {
        this.failed(attempt, clientId, call.address, error);
        if (guessable) await this.throttle.failed(call.address, clientId);
      }
      throw error;
    }
    this.metrics.clientAuthentications.inc({ method: metricLabel(authenticated.method), outcome: 'success' });
    annotateSpan({ 'tollgate.client_auth_method': authenticated.method, 'tollgate.client_id': authenticated.client.clientId });
    await this.throttle.succeeded(call.address, authenticated.client.clientId);
    return authenticated;
  }

  /** Counted in the metrics and audited; the throttle counts it as a failure. */
  private failed(attempt: ClientAuthAttempt, clientId: string | undefined, address: string, error: OAuthError): void {
    this.metrics.clientAuthentications.inc({ method: metricLabel(attempt.method), outcome: 'failure' });
    this.audit.emit({ name: 'client.authentication_failed', clientId, method: attempt.method, address, error: error.description ?? error.code });
  }
}

/** docs/throttling.md: failures are counted per (address, client_id the request names). */
function throttledClientId(attempt: ClientAuthAttempt, call: ClientAuthCall): string | undefined {
  return attempt.claimedClientId ?? (singleParameter(call.body, 'client_id')?.slice(0, 200) || undefined);
}

function isAuthenticationFailure(error: unknown): error is OAuthError {
  return error instanceof OAuthError && error.code === 'invalid_client';
}

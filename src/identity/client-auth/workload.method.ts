import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient, Client } from '../clients/client';
import { ClientStore } from '../clients/client.store';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { singleParameter } from '../../protocol/form';
import { ForeignJwtRejected, ForeignJwtVerifier } from '../trusted-issuers/foreign-jwt.verifier';
import { JwkSetResolver } from '../trusted-issuers/jwk-set.resolver';
import { spiffeTrustDomainOf, type TrustedIssuer } from '../trusted-issuers/trusted-issuer';
import { TrustedIssuerStore } from '../trusted-issuers/trusted-issuer.store';
import { workloadAudiences, isWorkloadAssertion, readClientAssertion, type ClientAssertion } from './client-assertion';
import { clientAuthFailed } from './client-auth-failure';
import { JWT_SPIFFE_ASSERTION, MAX_CLIENT_ID_LENGTH, type ClientAuthMethod, type ClientAuthRequest } from './client-auth-method';
import { endpointUrl } from './endpoint-url';

const SERVICE_ACCOUNT = /^system:serviceaccount:[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?:[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?$/;

/**
 * Workload identity (docs/workload-identity.md): a Kubernetes service-account token or a SPIFFE
 * JWT-SVID (draft-ietf-oauth-spiffe-client-auth), verified with the keys of a trusted workload
 * issuer, authenticates the client bound to that identity. Such tokens are reused by design, so no
 * `jti` check and no lifetime cap: only `exp`.
 */
@Injectable()
export class WorkloadIdentityMethod implements ClientAuthMethod {
  methodName(request: ClientAuthRequest): 'kubernetes_service_account' | 'spiffe_jwt_svid' {
    return readClientAssertion(request.body)?.type === JWT_SPIFFE_ASSERTION ? 'spiffe_jwt_svid' : 'kubernetes_service_account';
  }

  constructor(
    @Inject(ClientStore) private readonly clients: Pick<ClientStore, 'find' | 'findByWorkloadIdentity'>,
    @Inject(TrustedIssuerStore) private readonly issuers: Pick<TrustedIssuerStore, 'find'>,
    @Inject(JwkSetResolver) private readonly keys: Pick<JwkSetResolver, 'forIssuer'>,
    private readonly verifier: ForeignJwtVerifier,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  carries(request: ClientAuthRequest): boolean {
    const assertion = readClientAssertion(request.body);
    return assertion !== undefined && isWorkloadAssertion(assertion);
  }

  claimedClientId(request: ClientAuthRequest): string | undefined {
    return singleParameter(request.body, 'client_id') || undefined;
  }

  async authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    const assertion = readClientAssertion(request.body) as ClientAssertion;
    const clientId = this.claimedClientId(request);
    if (clientId !== undefined && clientId.length > MAX_CLIENT_ID_LENGTH) throw clientAuthFailed();
    const audience = workloadAudiences(this.config.issuer, endpointUrl(this.config.issuer, request.endpoint));
    return assertion.type === JWT_SPIFFE_ASSERTION ? this.spiffe(assertion, clientId, audience) : this.kubernetes(assertion, clientId, audience);
  }

  /** `iss` is the cluster's issuer; `sub` the service account, which must be bound to the named client. */
  private async kubernetes(assertion: ClientAssertion, clientId: string | undefined, audience: string[]): Promise<AuthenticatedClient> {
    if (clientId === undefined) throw clientAuthFailed('client_id is required with a Kubernetes service-account token');
    const iss = assertion.unverified?.iss;
    const issuer = typeof iss === 'string' ? await this.issuers.find(iss, 'workload') : undefined;
    if (!issuer || issuer.kind !== 'kubernetes') throw clientAuthFailed('the assertion issuer is not a trusted workload issuer');
    const sub = await this.verifiedSubject(assertion, issuer, { issuer: issuer.issuer, audience });
    if (!SERVICE_ACCOUNT.test(sub)) throw clientAuthFailed('the assertion subject is not a Kubernetes service account');
    return this.boundClient(await this.clients.find(clientId), issuer, sub, 'kubernetes_service_account');
  }

  /** The trust domain comes from the SVID's `sub`, never from its `iss`; the client_id may be omitted. */
  private async spiffe(assertion: ClientAssertion, clientId: string | undefined, audience: string[]): Promise<AuthenticatedClient> {
    const sub = assertion.unverified?.sub;
    const trustDomain = typeof sub === 'string' ? spiffeTrustDomainOf(sub) : undefined;
    const issuer = trustDomain ? await this.issuers.find(trustDomain, 'workload') : undefined;
    if (!issuer || issuer.kind !== 'spiffe') throw clientAuthFailed('the SPIFFE ID is not in a trusted trust domain');
    const spiffeId = await this.verifiedSubject(assertion, issuer, { subject: sub as string, audience });
    const client = clientId !== undefined ? await this.clients.find(clientId) : await this.clients.findByWorkloadIdentity(issuer.issuer, spiffeId);
    return this.boundClient(client, issuer, spiffeId, 'spiffe_jwt_svid');
  }

  private async verifiedSubject(
    assertion: ClientAssertion,
    issuer: TrustedIssuer,
    expected: { issuer?: string; subject?: string; audience: string[] },
  ): Promise<string> {
    try {
      const claims = await this.verifier.verify(assertion.jwt, this.keys.forIssuer(issuer), { ...expected, requiredClaims: ['sub'] });
      return claims.sub as string;
    } catch (error) {
      throw error instanceof ForeignJwtRejected ? clientAuthFailed(`invalid client assertion: ${error.reason}`) : error;
    }
  }

  private boundClient(client: Client | undefined, issuer: TrustedIssuer, subject: string, method: AuthenticatedClient['method']): AuthenticatedClient {
    const bound = client?.workloadIdentities?.some((identity) => identity.issuer === issuer.issuer && identity.subject === subject);
    if (!client || !client.enabled || !bound) throw clientAuthFailed('the workload identity is not bound to this client');
    return { client, method };
  }
}

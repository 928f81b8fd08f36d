import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient } from '../clients/client';
import { ClientStore } from '../clients/client.store';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { singleParameter } from '../../protocol/form';
import { FOREIGN_JWT_CLOCK_SKEW_SECONDS, ForeignJwtRejected, ForeignJwtVerifier } from '../trusted-issuers/foreign-jwt.verifier';
import { JwkSetResolver } from '../trusted-issuers/jwk-set.resolver';
import { AssertionReplayGuard } from './assertion-replay.guard';
import { isSoleIssuerAudience, isWorkloadAssertion, readClientAssertion, type ClientAssertion } from './client-assertion';
import { clientAuthFailed } from './client-auth-failure';
import { JWT_BEARER_ASSERTION, MAX_CLIENT_ID_LENGTH, type ClientAuthMethod, type ClientAuthRequest } from './client-auth-method';

/** RFC 7523 §3 leaves the lifetime to the server; five minutes bounds how long a jti must be remembered. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;
const MAX_JTI_LENGTH = 256;

/**
 * private_key_jwt (RFC 7523 §2.2, OpenID Connect Core §9): a JWT signed with a key of the client's
 * registered JWK Set (inline or `jwks_uri`), `iss` = `sub` = client_id, `aud` = the issuer alone, short-lived,
 * with a `jti` used once across all instances.
 */
@Injectable()
export class PrivateKeyJwtMethod implements ClientAuthMethod {
  methodName(): 'private_key_jwt' {
    return 'private_key_jwt';
  }

  constructor(
    @Inject(ClientStore) private readonly clients: Pick<ClientStore, 'find'>,
    @Inject(JwkSetResolver) private readonly keys: Pick<JwkSetResolver, 'forSource'>,
    private readonly verifier: ForeignJwtVerifier,
    private readonly replays: AssertionReplayGuard,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  carries(request: ClientAuthRequest): boolean {
    const assertion = readClientAssertion(request.body);
    return assertion !== undefined && !isWorkloadAssertion(assertion);
  }

  claimedClientId(request: ClientAuthRequest): string | undefined {
    const posted = singleParameter(request.body, 'client_id');
    const sub = readClientAssertion(request.body)?.unverified?.sub;
    return posted || (typeof sub === 'string' ? sub : undefined);
  }

  async authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    const assertion = readClientAssertion(request.body) as ClientAssertion;
    if (assertion.type !== JWT_BEARER_ASSERTION) throw clientAuthFailed('unsupported client_assertion_type');
    const clientId = this.claimedClientId(request);
    const posted = singleParameter(request.body, 'client_id');
    if (!clientId || clientId.length > MAX_CLIENT_ID_LENGTH) throw clientAuthFailed();
    if (posted && posted !== assertion.unverified?.sub) throw clientAuthFailed('client_id does not match the assertion');
    const client = await this.clients.find(clientId);
    if (!client || !client.enabled || !client.assertionKeys) throw clientAuthFailed();
    const claims = await this.verifier
      .verify(assertion.jwt, this.keys.forSource(client.assertionKeys), {
        issuer: clientId,
        subject: clientId,
        audience: [this.config.issuer],
        requiredClaims: ['jti'],
      })
      .catch((error: unknown) => {
        throw error instanceof ForeignJwtRejected ? clientAuthFailed(`invalid client assertion: ${error.reason}`) : error;
      });
    // The same rule at every endpoint: never the token endpoint URL, never the issuer among others.
    if (!isSoleIssuerAudience(claims.aud, this.config.issuer)) throw clientAuthFailed('invalid client assertion: "aud" must be the issuer identifier alone');
    const now = Math.floor(Date.now() / 1000);
    const exp = claims.exp as number;
    if (exp > now + MAX_ASSERTION_LIFETIME_SECONDS + FOREIGN_JWT_CLOCK_SKEW_SECONDS)
      throw clientAuthFailed('invalid client assertion: "exp" is more than 5 minutes ahead');
    const jti = claims.jti;
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH)
      throw clientAuthFailed('invalid client assertion: "jti" is missing or too long');
    // Remembered until it could no longer verify (exp plus the clock skew).
    const rememberUntil = new Date((exp + FOREIGN_JWT_CLOCK_SKEW_SECONDS) * 1000);
    if (!(await this.replays.firstUse(clientId, jti, rememberUntil))) throw clientAuthFailed('invalid client assertion: it was used before');
    return { client, method: 'private_key_jwt' };
  }
}

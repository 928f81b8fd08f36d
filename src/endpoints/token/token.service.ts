import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { DpopProofVerifier, type DpopHeader } from '../../tokens/dpop/dpop-proof.verifier';
import type { GrantContext } from '../../grants/grant-validator';
import { GrantValidatorRegistry } from '../../grants/grant-validator.registry';
import type { FormBody } from '../../protocol/form';
import { isContinued, type ContinuedGrant } from '../../grants/grant-continuation';
import type { GrantSuccess } from '../../grants/grant-result';
import { OAuthError } from '../../protocol/oauth-error';
import { inSpan } from '../../platform/tracing/spans';
import type { ApiResource } from '../../identity/resources/resource';
import type { ResourceCatalog } from '../../identity/resources/resource-catalog';
import { ResourceStore } from '../../identity/resources/resource.store';
import { UserStore } from '../../identity/users/user.store';
import { GrantRunner, type IssuingOutcome } from './grant-runner';
import { grantedScopes, grantedSubject } from './granted-scopes';
import { requireEnabledUser, type SubjectUsers } from './subject-user';
import type { TokenResponse } from './token-response';
import { TokenResponseGenerator, type IssuingResult } from './token-response.generator';
import { readGrantType, readTokenRequest } from './token-request';

/**
 * The token endpoint's pipeline after client authentication (RFC 6749 §3.2): find the grant, check
 * the client may use it, read the request once, run the grant's validator, check what it returned
 * (scopes, user), and hand the result to the one response generator (docs/grants.md).
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly grants: GrantValidatorRegistry,
    @Inject(ResourceStore) private readonly resources: Pick<ResourceStore, 'catalog'>,
    @Inject(TokenResponseGenerator) private readonly responses: Pick<TokenResponseGenerator, 'generate'>,
    private readonly audit: AuditSink,
    @Inject(UserStore) private readonly users: SubjectUsers,
    @Inject(DpopProofVerifier) private readonly dpop: Pick<DpopProofVerifier, 'forTokenRequest'>,
    @Inject(GrantRunner) private readonly runner: Pick<GrantRunner, 'run'>,
  ) {}

  async requestToken(
    body: FormBody,
    authenticated: AuthenticatedClient,
    clientAddress: string,
    receivedAt = Date.now(),
    dpopProof: DpopHeader = undefined,
  ): Promise<TokenResponse> {
    try {
      return await this.issueToken(body, authenticated, clientAddress, receivedAt, dpopProof);
    } catch (error) {
      if (error instanceof OAuthError) {
        const grantType = typeof body.grant_type === 'string' ? body.grant_type.slice(0, 100) : undefined;
        this.audit.emit({ name: 'token.request_failed', grantType, clientId: authenticated.client.clientId, error: error.code });
      }
      throw error;
    }
  }

  private async issueToken(
    body: FormBody,
    { client, method }: AuthenticatedClient,
    clientAddress: string,
    receivedAt: number,
    dpopProof: DpopHeader,
  ): Promise<TokenResponse> {
    const grantType = readGrantType(body);
    const validator = this.grants.find(grantType);
    if (!validator) throw OAuthError.unsupportedGrantType(`grant_type ${grantType} is not supported`);
    // Authentication refused a disabled client already; no grant issues for one whatever the method.
    if (!client.enabled) throw OAuthError.invalidClient('the client is disabled');
    if (!client.allowedGrantTypes.includes(grantType)) throw OAuthError.unauthorizedClient(`the client may not use grant_type ${grantType}`);
    // A public client proves nothing: only a grant that declares something else protects it (docs/grants.md).
    if (method === 'none' && validator.publicClients !== true) throw OAuthError.unauthorizedClient(`a public client may not use grant_type ${grantType}`);

    const catalog = this.resources.catalog;
    const request = inSpan('tollgate.token.request_validation', () => readTokenRequest(grantType, body, validator, client, catalog));
    // RFC 9449 §5: the proof is checked (and its jti used up) only for a request that is otherwise well formed.
    const dpop = await inSpan('tollgate.token.dpop_proof', () => this.dpop.forTokenRequest(dpopProof, client));
    const context: GrantContext = {
      grantType,
      client,
      scopes: request.scopes,
      resources: catalog,
      resourceIndicators: request.resourceIndicators,
      rawParameters: request.rawParameters,
      clientAddress,
      receivedAt,
      dpop,
    };
    // Checked, bounded in time; a fault the grant throws is `server_error` without its details, an outage 503 (docs/errors.md).
    const outcome = await inSpan('tollgate.token.grant_validation', () => this.runner.run(validator, request.parameters, context), {
      'tollgate.grant_type': grantType,
    });
    const result = issuingResult(outcome);
    const scopes = grantedScopes(result, request.scopes, client);
    requireKnownAudience(result, catalog, validator.resourceIndicators === true ? request.resourceIndicators : undefined);
    const subject = grantedSubject(result);
    // docs/users.md: whatever the grant, a token's user is a known, enabled one (seen within CACHE_TTL_SECONDS).
    if (subject !== undefined) await requireEnabledUser(this.users, subject, validator.subjectError ?? 'invalid_grant');
    const policy = { signsIn: validator.signsIn === true, refreshTokens: validator.refreshTokens === true };
    return inSpan('tollgate.token.issuance', () => this.responses.generate(withScopes(result, scopes), grantType, client, dpop, policy));
  }
}

/** What Tollgate continues (a code, a device code, a refresh, a token it signed), or the grant's success. */
function issuingResult(outcome: IssuingOutcome): UnscopedResult {
  return outcome.kind === 'continued' ? outcome.continued : outcome.success;
}

type UnscopedResult = ContinuedGrant | GrantSuccess;

/**
 * A success's `audience` names only API resources (by name or URI), and for a grant that reads RFC
 * 8707 `resource`, only the requested ones (docs/grants.md#what-the-token-endpoint-enforces).
 */
function requireKnownAudience(result: UnscopedResult, catalog: Pick<ResourceCatalog, 'apiResource'>, requested: readonly ApiResource[] | undefined): void {
  if (isContinued(result)) return;
  const allowed = (audience: string) => (requested ? requested.some((api) => api.uri === audience) : catalog.apiResource(audience) !== undefined);
  const outside = result.audience?.find((audience) => !allowed(audience));
  if (outside !== undefined) throw OAuthError.invalidTarget(`resource ${outside.slice(0, 200)} was not requested`);
}

/** A success's scopes as granted (the requested ones when it named none); the other kinds carry theirs. */
function withScopes(result: UnscopedResult, scopes: readonly string[]): IssuingResult {
  if (isContinued(result)) return result;
  // Not a spread: on Node 20 a spread followed by more members costs ~2.5 µs.
  return Object.assign({}, result, { scopes });
}

import { Inject, Injectable } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AuditSink } from '../platform/audit/audit-event';
import type { Client } from '../identity/clients/client';
import { MAX_PARAMETER_LENGTH } from '../protocol/form';
import { OAuthError } from '../protocol/oauth-error';
import { OFFLINE_ACCESS, type RequestedScopes } from '../protocol/scope';
import { isConcurrentUse, REFRESH_TOKEN_GRANT_TYPE, refreshTokenState, type RefreshToken } from '../tokens/refresh-tokens/refresh-token';
import { RefreshTokenService } from '../tokens/refresh-tokens/refresh-token.service';
import type { ResourceCatalog } from '../identity/resources/resource-catalog';
import { authorizedResourceUris, narrowResources, scopesForResources } from '../identity/resources/resource-indicators';
import { UserDirectory } from '../identity/users/user-directory';
import { continueWith } from './grant-continuation';
import type { GrantSuccess } from './grant-result';
import type { GrantContext, GrantValidator } from './grant-validator';

/** RFC 6749 §6; decorators run bottom-up, presence first. */
export class RefreshTokenParameters {
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString({ message: 'refresh_token is required' })
  @IsNotEmpty({ message: 'refresh_token is required' })
  refresh_token!: string;
}

/** What the grant needs of the refresh-token service. */
export type RefreshTokenLookup = Pick<RefreshTokenService, 'find' | 'revokeFamily'>;

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): every use consumes the token and the token endpoint
 * issues its successor in the same family, both in one transaction (RefreshTokenService.issueFor);
 * presenting a consumed token revokes the family.
 */
@Injectable()
export class RefreshTokenGrantValidator implements GrantValidator<RefreshTokenParameters> {
  readonly grantType = REFRESH_TOKEN_GRANT_TYPE;
  readonly parameters = RefreshTokenParameters;
  readonly resourceIndicators = true;
  // RFC 9700 §4.14.2: rotation (and for a bound family, DPoP) protects a public client's refresh token.
  readonly publicClients = true;
  readonly signsIn = true;
  readonly refreshTokens = true;

  constructor(
    @Inject(RefreshTokenService) private readonly refreshTokenService: RefreshTokenLookup,
    @Inject(UserDirectory) private readonly users: Pick<UserDirectory, 'findBySubjectId'>,
    private readonly audit: AuditSink,
  ) {}

  /**
   * The successor joins the family, and the presented token is used up in the same transaction that
   * stores it (RefreshTokenService.issueFor, called by the token endpoint's response generator).
   */
  async validate(
    { refresh_token: handle }: RefreshTokenParameters,
    { client, scopes, resources, resourceIndicators: requested, receivedAt, dpop }: GrantContext,
  ): Promise<GrantSuccess> {
    const token = await this.refreshTokenService.find(handle);
    // Bound to its client (RFC 6749 §6); another client learns nothing and changes nothing.
    if (!token || token.clientId !== client.clientId) throw invalidGrant('the refresh token is invalid');
    await this.requireActive(token, receivedAt);
    // RFC 9449 §5: a public client's bound refresh token is redeemed only with a proof of its key.
    if (token.confirmation && token.confirmation.jkt !== dpop?.jkt) {
      throw new OAuthError('invalid_dpop_proof', 'the refresh token is bound to another DPoP key, or no proof was sent');
    }
    if (!client.allowedScopes.includes(OFFLINE_ACCESS)) throw invalidGrant('the client may no longer use offline access');
    // RFC 8707 §2.2: `resource` narrows what was authorized, checked before the scope; omitted, the audience stays.
    const audience = requested.length > 0 ? narrowResources(requested, authorizedResourceUris(token.resources, token.scopes, resources)) : undefined;
    const granted = scopesForResources({ names: grantedScopes(token, scopes, client, resources), explicit: scopes.explicit }, requested, resources);
    await this.requireEnabledUser(token.subject);
    const continuation = continueWith({ kind: 'refresh_rotation', presented: token, scopes: granted, audience });
    return { subject: token.subject, scopes: granted, continuation };
  }

  /** The directory itself, not the token endpoint's cached view: a user disabled a moment ago refreshes nothing. */
  private async requireEnabledUser(subject: string): Promise<void> {
    const user = await this.users.findBySubjectId(subject);
    if (!user || !user.enabled) throw invalidGrant('the user of the refresh token is unknown or disabled');
  }

  private async requireActive(token: RefreshToken, receivedAt: number): Promise<void> {
    switch (refreshTokenState(token, new Date())) {
      case 'active':
        return;
      case 'consumed':
        // A concurrent request with the same token won the race (docs/tokens.md#refresh-tokens):
        // its tokens stay valid; this one gets nothing and revokes nothing.
        if (isConcurrentUse(token, receivedAt)) throw invalidGrant('the refresh token has already been used');
        // RFC 9700 §4.14.2: a rotated token came back, so one of its holders is not the client.
        return this.revokeReusedFamily(token);
      case 'revoked':
        throw invalidGrant('the refresh token has been revoked');
      case 'expired':
        throw invalidGrant('the refresh token has expired');
    }
  }

  private async revokeReusedFamily(token: RefreshToken): Promise<never> {
    await this.refreshTokenService.revokeFamily(token.familyId);
    this.audit.emit({ name: 'refresh_token.reuse_detected', clientId: token.clientId, subject: token.subject, familyId: token.familyId });
    throw invalidGrant('the refresh token has already been used');
  }
}

/**
 * RFC 6749 §6: `scope` may narrow the original grant, never widen it; omitted, it means the original
 * scope, less what the client may no longer have.
 */
function grantedScopes(token: RefreshToken, requested: RequestedScopes, client: Client, resources: ResourceCatalog): string[] {
  if (!requested.explicit) {
    return token.scopes.filter((scope) => client.allowedScopes.includes(scope) && resources.isKnownScope(scope));
  }
  const widened = requested.names.filter((scope) => !token.scopes.includes(scope));
  if (widened.length > 0) throw OAuthError.invalidScope(`scope was not granted to the refresh token: ${widened.join(' ')}`);
  return [...requested.names];
}

function invalidGrant(description: string): OAuthError {
  return OAuthError.invalidGrant(description);
}

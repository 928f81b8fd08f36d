import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { AccessTokenDenyList } from '../../tokens/access-token/access-token-deny-list';
import { AccessTokenValidator, undefinedIfInvalid } from '../../tokens/access-token/access-token.validator';
import type { AuthenticatedClient, Client } from '../../identity/clients/client';
import { OAuthError } from '../../protocol/oauth-error';
import type { TokenParameters } from '../../protocol/token-parameters';
import { isRefreshTokenHandle } from '../../tokens/refresh-tokens/refresh-token';
import { RefreshTokenService } from '../../tokens/refresh-tokens/refresh-token.service';

/**
 * RFC 7009 for an authenticated client (docs/endpoints.md#revocation). A refresh token takes its whole family with
 * it, and the access tokens issued alongside (§2.1); an access token goes on the deny list until it
 * expires. A token that is unknown, invalid or already revoked needs nothing done (§2.2).
 */
@Injectable()
export class RevocationService {
  constructor(
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
    @Inject(RefreshTokenService) private readonly refreshTokens: Pick<RefreshTokenService, 'find' | 'revokeFamily'>,
    @Inject(AccessTokenDenyList) private readonly denyList: Pick<AccessTokenDenyList, 'revoke'>,
    private readonly audit: AuditSink,
  ) {}

  async revoke({ token }: TokenParameters, { client }: AuthenticatedClient): Promise<void> {
    // The hint is not needed: a refresh token handle is never a JWT (RFC 7009 §2.1 lets us ignore it).
    if (isRefreshTokenHandle(token)) await this.revokeRefreshToken(token, client);
    else await this.revokeAccessToken(token, client);
  }

  private async revokeRefreshToken(handle: string, client: Client): Promise<void> {
    const token = await this.refreshTokens.find(handle);
    if (!token) return;
    requireOwnToken(token.clientId, client);
    await this.refreshTokens.revokeFamily(token.familyId);
    this.audit.emit({ name: 'token.revoked', clientId: client.clientId, tokenType: 'refresh_token', familyId: token.familyId });
  }

  private async revokeAccessToken(jwt: string, client: Client): Promise<void> {
    const token = await this.accessTokens.validate(jwt).catch(undefinedIfInvalid);
    if (!token) return;
    requireOwnToken(token.clientId, client);
    await this.denyList.revoke([{ jwtId: token.jwtId, expiresAt: token.expiresAt }]);
    this.audit.emit({ name: 'token.revoked', clientId: client.clientId, tokenType: 'access_token', jwtId: token.jwtId });
  }
}

/** RFC 7009 §2.1: a client may revoke only the tokens issued to it; the token stays valid. */
function requireOwnToken(issuedTo: string, client: Client): void {
  if (issuedTo !== client.clientId) throw OAuthError.invalidRequest('the token was not issued to this client');
}

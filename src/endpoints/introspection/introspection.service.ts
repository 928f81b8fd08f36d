import { Inject, Injectable } from '@nestjs/common';
import { AccessTokenValidator, undefinedIfInvalid } from '../../tokens/access-token/access-token.validator';
import type { AuthenticatedClient, Client } from '../../identity/clients/client';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import type { TokenParameters } from '../../protocol/token-parameters';
import { isRefreshTokenHandle, refreshTokenState } from '../../tokens/refresh-tokens/refresh-token';
import { RefreshTokenService } from '../../tokens/refresh-tokens/refresh-token.service';
import { ResourceStore } from '../../identity/resources/resource.store';
import { UserStore } from '../../identity/users/user.store';
import { INACTIVE, accessTokenIntrospection, isAccessTokenVisibleTo, refreshTokenIntrospection, type IntrospectionResponse } from './introspection-response';

/**
 * RFC 7662 for an authenticated client. Access tokens are validated as everywhere else
 * (docs/tokens.md#validation, deny list included); refresh tokens are looked up by hash. A token of a disabled user is
 * inactive, as the userinfo endpoint and the refresh grant would refuse it; users come from the
 * same cache as userinfo's (CACHE_TTL_SECONDS), so APIs introspecting every call cost no query.
 */
@Injectable()
export class IntrospectionService {
  constructor(
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
    @Inject(RefreshTokenService) private readonly refreshTokens: Pick<RefreshTokenService, 'find'>,
    private readonly users: UserStore,
    @Inject(ResourceStore) private readonly resources: Pick<ResourceStore, 'catalog'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  /** The caller is a confidential client (`ConfidentialClientGuard`). */
  async introspect({ token }: TokenParameters, { client }: AuthenticatedClient): Promise<IntrospectionResponse> {
    // The hint is not needed: a refresh token handle is never a JWT (RFC 7662 §2.1 lets us ignore it).
    return isRefreshTokenHandle(token) ? this.introspectRefreshToken(token, client) : this.introspectAccessToken(token, client);
  }

  private async introspectAccessToken(token: string, client: Client): Promise<IntrospectionResponse> {
    const validated = await this.accessTokens.validate(token).catch(undefinedIfInvalid);
    if (!validated || !isAccessTokenVisibleTo(validated, client, this.resources.catalog)) return INACTIVE;
    if (validated.subject !== undefined && !(await this.isEnabledUser(validated.subject))) return INACTIVE;
    return accessTokenIntrospection(validated, this.config.issuer);
  }

  private async introspectRefreshToken(handle: string, client: Client): Promise<IntrospectionResponse> {
    const token = await this.refreshTokens.find(handle);
    if (!token || token.clientId !== client.clientId || refreshTokenState(token, new Date()) !== 'active') return INACTIVE;
    if (!(await this.isEnabledUser(token.subject))) return INACTIVE;
    return refreshTokenIntrospection(token, this.config.issuer);
  }

  private async isEnabledUser(subject: string): Promise<boolean> {
    return (await this.users.findBySubjectId(subject))?.enabled === true;
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { OAuthError } from '../../protocol/oauth-error';
import { OPENID } from '../../protocol/scope';
import { ResourceStore } from '../../identity/resources/resource.store';
import type { User } from '../../identity/users/user';
import { UserStore } from '../../identity/users/user.store';
import { mapUserInfoClaims, type UserInfoClaims } from './claims.mapper';

/**
 * OIDC Core §5.3: the claims of the user a valid access token represents, read from the user store
 * (one indexed query, or memory for up to CACHE_TTL_SECONDS) and chosen by the token's scopes through the in-memory catalog.
 * The checks run in the order of docs/endpoints.md#userinfo: a user the token represents, then the `openid` scope.
 */
@Injectable()
export class UserInfoService {
  private readonly logger = new Logger(UserInfoService.name);
  // Standard claim names whose wrongly typed value was already reported: each is logged once.
  private readonly reported = new Set<string>();

  constructor(
    private readonly users: UserStore,
    @Inject(ResourceStore) private readonly resources: Pick<ResourceStore, 'catalog'>,
  ) {}

  async userInfo(token: ValidatedAccessToken): Promise<UserInfoClaims> {
    const user = await this.activeUserOf(token);
    requireOpenIdScope(token);
    return mapUserInfoClaims(user, token.scopes, this.resources.catalog, (claim) => this.reportLeftOut(claim, user));
  }

  /** By name only: the value may be personal data. Only standard claim names get here, so the set stays small. */
  private reportLeftOut(claim: string, user: User): void {
    if (this.reported.has(claim)) return;
    this.reported.add(claim);
    this.logger.warn(
      `UserInfo left out claim "${claim}" of user ${user.subjectId.slice(0, 64)}: not of the type OIDC Core §5.1 defines (logged once per claim, not for later users)`,
    );
  }

  private async activeUserOf(token: ValidatedAccessToken): Promise<User> {
    // A client-credentials token has no `sub`: it represents no user whose claims could be returned.
    if (token.subject === undefined) throw OAuthError.invalidToken('the access token does not represent a user');
    const user = await this.users.findBySubjectId(token.subject);
    if (!user || !user.enabled) throw OAuthError.invalidToken('the user of the access token is unknown or disabled');
    return user;
  }
}

function requireOpenIdScope(token: ValidatedAccessToken): void {
  // OIDC Core §5.3.1: the UserInfo endpoint serves only tokens granted the `openid` scope.
  if (!token.scopes.includes(OPENID)) throw OAuthError.insufficientScope('the access token lacks the openid scope', OPENID);
}

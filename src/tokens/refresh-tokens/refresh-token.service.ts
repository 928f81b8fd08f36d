import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ActorClaim } from '../access-token/access-token';
import { AccessTokenDenyList } from '../access-token/access-token-deny-list';
import type { IssuedAccessToken } from '../access-token/access-token.issuer';
import type { Client } from '../../identity/clients/client';
import { OAuthError } from '../../protocol/oauth-error';
import { OFFLINE_ACCESS } from '../../protocol/scope';
import {
  REFRESH_TOKEN_GRANT_TYPE,
  generateRefreshTokenHandle,
  hashRefreshTokenHandle,
  isRefreshTokenHandle,
  type NewRefreshToken,
  type RefreshToken,
  type RefreshTokenFamily,
} from './refresh-token';
import { RefreshTokenRepository } from './refresh-token.repository';

/** What the token endpoint issued an access token for: `authTime` and `amr` resolved. */
export interface IssuedGrant {
  readonly subject?: string;
  readonly scopes: readonly string[];
  readonly actor?: ActorClaim;
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  /**
   * What the grant authorized, kept by a new family when the access token carries less (RFC 8707
   * §2.2: narrowed by `resource`); by default the access token's scopes and no resource.
   */
  readonly authorized?: { readonly scopes: readonly string[]; readonly resources: readonly string[] };
  /** A browser sign-in's session, kept with the family for the ID tokens of its refreshes. */
  readonly idToken?: { readonly sessionId?: string };
  /** The grant's own claims and `aud`, kept by the family for every refresh. */
  readonly claims?: Readonly<Record<string, unknown>>;
  readonly audience?: readonly string[];
  /** Whether the grant may begin a refresh-token family (its validator's `refreshTokens`). */
  readonly refreshable?: boolean;
  /** The DPoP key the access token was bound to: a public client's new family is bound to it too (RFC 9449 §5). */
  readonly confirmation?: { readonly jkt: string };
}

/**
 * Refresh tokens (RFC 6749 §6): issued only with `offline_access`, rotated on every use, and revoked
 * a whole family at a time together with the access tokens issued alongside (RFC 7009 §2.1,
 * RFC 9700 §4.14.2).
 */
@Injectable()
export class RefreshTokenService {
  constructor(
    private readonly repository: RefreshTokenRepository,
    @Inject(AccessTokenDenyList) private readonly denyList: Pick<AccessTokenDenyList, 'revoke'>,
  ) {}

  /** The stored token a handle names; undefined for an unknown or malformed handle. */
  async find(handle: string): Promise<RefreshToken | undefined> {
    if (!isRefreshTokenHandle(handle)) return undefined;
    return this.repository.findByHash(hashRefreshTokenHandle(handle));
  }

  /**
   * The refresh token to return with a grant's access token, or undefined: the successor joining
   * `rotated` for the `refresh_token` grant, a new family's first token when the grant qualifies.
   */
  async issueFor(grant: IssuedGrant, client: Client, accessToken: IssuedAccessToken, rotated?: RefreshTokenFamily): Promise<string | undefined> {
    if ((!rotated && !offersRefreshToken(grant, client)) || grant.subject === undefined) return undefined;
    const now = new Date();
    const family = rotated ?? newFamily(grant, client, now);
    const handle = generateRefreshTokenHandle();
    const token: NewRefreshToken = {
      tokenHash: hashRefreshTokenHandle(handle),
      familyId: family.id,
      subject: grant.subject,
      clientId: client.clientId,
      scopes: family.scopes,
      resources: family.resources,
      ...(family.claims === undefined ? {} : { claims: family.claims }),
      ...(family.audience === undefined ? {} : { audience: family.audience }),
      authTime: grant.authTime,
      authenticationMethods: grant.authenticationMethods,
      sessionId: grant.idToken?.sessionId,
      confirmation: family.confirmation,
      // The application's clock for both: `iat` and `exp` from one clock keep the family's lifetime exact.
      createdAt: now,
      expiresAt: family.expiresAt,
      accessToken: { jwtId: accessToken.jwtId, expiresAt: Math.floor(now.getTime() / 1000) + accessToken.expiresIn },
    };
    if (!rotated) {
      await this.repository.add(token);
      return handle;
    }
    // Consuming the presented token and storing its successor is one transaction: a request that
    // fails (database gone, 503) changes nothing, and the client's retry succeeds.
    const outcome = rotated.rotatedFrom
      ? await this.repository.rotate(rotated.rotatedFrom, token, now)
      : (await this.repository.addToFamily(token))
        ? 'rotated'
        : 'revoked';
    // The family was revoked (reuse detected, or RFC 7009 revocation) while this grant ran.
    if (outcome === 'revoked') throw OAuthError.invalidGrant('the refresh token has been revoked');
    // A concurrent request with the same token won: its tokens stay valid, this one gets nothing.
    if (outcome === 'consumed') throw OAuthError.invalidGrant('the refresh token has already been used');
    return handle;
  }

  /**
   * RFC 6749 §4.1.2: a code came back, so the access token it was exchanged for is denied, and the
   * family of the refresh token issued with it revoked.
   */
  async revokeIssuedFromCode(accessToken: { readonly jwtId: string; readonly expiresAt: Date }): Promise<void> {
    await this.denyList.revoke([{ jwtId: accessToken.jwtId, expiresAt: Math.floor(accessToken.expiresAt.getTime() / 1000) }]);
    await this.revokeFamilyIssuedWith(accessToken.jwtId);
  }

  /** Revokes the family of the refresh token issued with this access token, and the access tokens of that family. */
  async revokeFamilyIssuedWith(accessTokenJwtId: string): Promise<void> {
    const familyId = await this.repository.findFamilyIdByAccessToken(accessTokenJwtId);
    if (familyId !== undefined) await this.revokeFamily(familyId);
  }

  /** Revokes every refresh token of the family and denies the access tokens issued with them. */
  async revokeFamily(familyId: string): Promise<void> {
    const accessTokens = await this.repository.revokeFamily(familyId, new Date());
    await this.denyList.revoke(accessTokens);
  }
}

/** docs/tokens.md#refresh-tokens: only for a grant with `refreshTokens`, with `offline_access` granted, for a user, never for a delegated token. */
function offersRefreshToken(grant: IssuedGrant, client: Client): boolean {
  return (
    grant.refreshable === true &&
    grant.subject !== undefined &&
    grant.actor === undefined &&
    grant.scopes.includes(OFFLINE_ACCESS) &&
    // A token the client may not redeem would be a credential with no use.
    client.allowedGrantTypes.includes(REFRESH_TOKEN_GRANT_TYPE)
  );
}

/** The family's lifetime is absolute: rotation never extends it. */
function newFamily(grant: IssuedGrant, client: Client, now: Date): RefreshTokenFamily {
  const { scopes, resources } = grant.authorized ?? { scopes: grant.scopes, resources: [] };
  const expiresAt = new Date(now.getTime() + client.refreshTokenLifetimeSeconds * 1000);
  // RFC 9449 §5: a confidential client's refresh tokens are bound to its authentication instead.
  // A grant's own audience (not RFC 8707 resources, which `authorized` keeps) and claims stay with the family.
  const audience = grant.authorized === undefined ? grant.audience : undefined;
  return {
    id: randomUUID(),
    scopes,
    resources,
    expiresAt,
    ...(grant.claims === undefined ? {} : { claims: grant.claims }),
    ...(audience === undefined ? {} : { audience }),
    ...(client.public && grant.confirmation ? { confirmation: grant.confirmation } : {}),
  };
}

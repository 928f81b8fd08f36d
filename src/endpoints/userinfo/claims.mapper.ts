import type { IdentityResource } from '../../identity/resources/resource';
import type { User } from '../../identity/users/user';
import { hasStandardClaimType } from './standard-claims';

/** The UserInfo response body (OIDC Core §5.3.2): `sub` and the claims the granted scopes release. */
export interface UserInfoClaims {
  readonly sub: string;
  readonly [claim: string]: unknown;
}

/** Where the claim types of an identity scope are looked up (the in-memory resource catalog). */
export interface IdentityResourceLookup {
  identityResource(scope: string): IdentityResource | undefined;
}

/**
 * docs/endpoints.md#userinfo: `sub` always, plus for every granted identity scope the claims of that scope that
 * the user has. A claim the user lacks is omitted, never null (OIDC Core §5.3.2); `role` is always
 * an array; `updated_at` is epoch seconds (OIDC Core §5.1). A standard claim stored with another
 * type than OIDC Core §5.1 defines is left out, and its name passed to `leftOut`.
 */
export function mapUserInfoClaims(
  user: User,
  grantedScopes: readonly string[],
  resources: IdentityResourceLookup,
  leftOut: (claim: string) => void = () => undefined,
): UserInfoClaims {
  const claims: Record<string, unknown> = { sub: user.subjectId };
  for (const scope of grantedScopes) {
    for (const claimType of resources.identityResource(scope)?.claimTypes ?? []) {
      // `in` also skips inherited names such as __proto__, which must never be assigned.
      if (claimType in claims) continue;
      const value = claimValue(user, claimType);
      if (value === undefined) continue;
      if (hasStandardClaimType(claimType, value)) claims[claimType] = value;
      else leftOut(claimType);
    }
  }
  return claims as UserInfoClaims;
}

function claimValue(user: User, claimType: string): unknown {
  switch (claimType) {
    case 'role':
      return user.roles.length > 0 ? [...user.roles] : undefined;
    case 'updated_at':
      return epochSeconds(user.updatedAt);
    default:
      return storedClaim(user.claims, claimType);
  }
}

function storedClaim(stored: Readonly<Record<string, unknown>>, claimType: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(stored, claimType)) return undefined;
  const value = stored[claimType];
  // OIDC Core §5.3.2: a claim without a value is left out rather than sent as null or "".
  return value === null || value === '' ? undefined : value;
}

function epochSeconds(date: Date | undefined): number | undefined {
  const milliseconds = date?.getTime() ?? NaN;
  return Number.isFinite(milliseconds) ? Math.floor(milliseconds / 1000) : undefined;
}

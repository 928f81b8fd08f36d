import type { Client } from '../../identity/clients/client';
import type { ContinuedGrant } from '../../grants/grant-continuation';
import type { GrantSuccess } from '../../grants/grant-result';
import { OAuthError } from '../../protocol/oauth-error';
import type { RequestedScopes } from '../../protocol/scope';

type IssuingKind = ContinuedGrant | GrantSuccess;

/**
 * The scopes a grant's result issues, checked whatever the grant (docs/grants.md#what-the-token-endpoint-enforces):
 * within the requested ones (all the client's by default, RFC 6749 §3.3), or for a code, a device code or a refresh,
 * which carry the scopes of an earlier grant, within the client's. A success that names none gets the
 * requested ones.
 */
export function grantedScopes(result: IssuingKind, requested: RequestedScopes, client: Client): readonly string[] {
  switch (result.kind) {
    case 'code_redemption':
      return within(result.scopes ?? result.code.scopes, client.allowedScopes, 'is not allowed for this client');
    case 'device_code_redemption':
    case 'refresh_rotation':
      return within(result.scopes, client.allowedScopes, 'is not allowed for this client');
    case 'self_issued':
      return within(result.token.scopes, requested.names, 'was not requested');
    default:
      return within(result.scopes ?? requested.names, requested.names, 'was not requested');
  }
}

/** The user a grant's result issues a token for; undefined for a token that represents only the client. */
export function grantedSubject(result: IssuingKind): string | undefined {
  switch (result.kind) {
    case 'code_redemption':
      return result.code.subject;
    case 'refresh_rotation':
      return result.presented.subject;
    default:
      return result.subject;
  }
}

function within(scopes: readonly string[], bound: readonly string[], refusal: string): readonly string[] {
  const outside = scopes.find((scope) => !bound.includes(scope));
  if (outside !== undefined) throw OAuthError.invalidScope(`scope ${outside.slice(0, 200)} ${refusal}`);
  return scopes;
}

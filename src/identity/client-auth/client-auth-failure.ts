import { OAuthError } from '../../protocol/oauth-error';

/** 401 `invalid_client` (RFC 6749 §5.2): the reason names the failed check, never the credential. */
export function clientAuthFailed(reason = 'client authentication failed', basicChallenge = false): OAuthError {
  return OAuthError.invalidClient(reason, { challenge: basicChallenge ? 'Basic' : undefined });
}

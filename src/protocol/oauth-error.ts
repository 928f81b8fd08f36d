/** Error codes of RFC 6749 §5.2 and §4.1.2.1, RFC 6750 §3.1, RFC 8693 §2.2.2, RFC 9126, RFC 8628, RFC 9449 and OpenID Connect Core §3.1.2.6. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'temporarily_unavailable'
  | 'unsupported_response_type'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  // OpenID Connect Core Unmet Authentication Requirements 1.0: an `acr` the user cannot reach (RFC 9470).
  | 'unmet_authentication_requirements'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'invalid_request_uri'
  | 'invalid_redirect_uri'
  // RFC 7591 §3.2.2: dynamic client registration.
  | 'invalid_client_metadata'
  // RFC 8628 §3.5: the device authorization grant's polling answers.
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  // RFC 9449 §7.1, §8: a DPoP proof that fails its checks; a server nonce is needed.
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'server_error';

/**
 * How the 401 challenge is written (RFC 7617 for Basic, RFC 6750 §3 for Bearer, RFC 9449 §7.1 for DPoP).
 * Tollgate names Basic after Basic client authentication and DPoP under the DPoP scheme; a protected
 * resource's Bearer challenge is its route's (`OAuthRoute`), not the error's.
 */
export type AuthChallenge = 'Basic' | 'Bearer' | 'DPoP';

export interface OAuthErrorOptions {
  readonly status?: number;
  readonly challenge?: AuthChallenge;
  /** RFC 6750 §3: the scope needed, for `insufficient_scope`. */
  readonly scope?: string;
  readonly retryAfterSeconds?: number;
  /** RFC 6750 §3.1: a request that carried no token gets a challenge with no error code. */
  readonly bareChallenge?: boolean;
  /** RFC 9449 §7.1: the DPoP challenge's `algs`, space-separated. */
  readonly algs?: string;
  /** RFC 9449 §8.1: the nonce to send back in `DPoP-Nonce`. */
  readonly dpopNonce?: string;
  readonly cause?: unknown;
}

const DEFAULT_STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  temporarily_unavailable: 503,
  server_error: 500,
};

/** The one error type of the protocol layer; `OAuthExceptionFilter` renders it. */
export class OAuthError extends Error {
  readonly status: number;

  constructor(
    readonly code: OAuthErrorCode,
    readonly description?: string,
    readonly options: OAuthErrorOptions = {},
  ) {
    super(description ? `${code}: ${description}` : code, { cause: options.cause });
    this.status = options.status ?? DEFAULT_STATUS[code] ?? 400;
  }

  static invalidRequest(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_request', description, options);
  }
  static invalidClient(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_client', description, options);
  }
  static invalidGrant(description: string): OAuthError {
    return new OAuthError('invalid_grant', description);
  }
  static unauthorizedClient(description: string): OAuthError {
    return new OAuthError('unauthorized_client', description);
  }
  static unsupportedGrantType(description: string): OAuthError {
    return new OAuthError('unsupported_grant_type', description);
  }
  static invalidScope(description: string): OAuthError {
    return new OAuthError('invalid_scope', description);
  }
  static invalidTarget(description: string): OAuthError {
    return new OAuthError('invalid_target', description);
  }
  static invalidToken(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_token', description, options);
  }
  static missingBearerToken(): OAuthError {
    return new OAuthError('invalid_token', 'No access token was presented', { bareChallenge: true });
  }
  static insufficientScope(description: string, scope: string): OAuthError {
    return new OAuthError('insufficient_scope', description, { scope });
  }
  static unsupportedResponseType(description: string): OAuthError {
    return new OAuthError('unsupported_response_type', description);
  }
  static accessDenied(description: string): OAuthError {
    return new OAuthError('access_denied', description);
  }
  static loginRequired(description: string): OAuthError {
    return new OAuthError('login_required', description);
  }
  static consentRequired(description: string): OAuthError {
    return new OAuthError('consent_required', description);
  }
  /** The requested authentication context cannot be met for this user (e.g. `phr` without a passkey). */
  static unmetAuthenticationRequirements(description: string): OAuthError {
    return new OAuthError('unmet_authentication_requirements', description);
  }
  static requestNotSupported(description: string): OAuthError {
    return new OAuthError('request_not_supported', description);
  }
  static requestUriNotSupported(description: string): OAuthError {
    return new OAuthError('request_uri_not_supported', description);
  }
  /** RFC 9126 §4: an unknown, expired, used or other client's pushed `request_uri`. */
  static invalidRequestUri(description: string): OAuthError {
    return new OAuthError('invalid_request_uri', description);
  }
  /** RFC 9126 §2.3 (RFC 7591 §3.2.2): a pushed request's `redirect_uri` is not the client's. */
  static invalidRedirectUri(description: string): OAuthError {
    return new OAuthError('invalid_redirect_uri', description);
  }
  /** RFC 7591 §3.2.2: a registration's metadata is refused. */
  static invalidClientMetadata(description: string): OAuthError {
    return new OAuthError('invalid_client_metadata', description);
  }
  static temporarilyUnavailable(cause?: unknown): OAuthError {
    return new OAuthError('temporarily_unavailable', 'The service is temporarily unavailable; retry later', {
      retryAfterSeconds: 5,
      cause,
    });
  }
  static serverError(cause?: unknown): OAuthError {
    return new OAuthError('server_error', 'An unexpected error occurred', { cause });
  }
}

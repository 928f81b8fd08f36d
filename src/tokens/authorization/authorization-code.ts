/** An authorization code as stored (RFC 6749 §4.1.2): only its hash, bound to all it was issued for. */
export interface AuthorizationCode {
  readonly codeHash: string;
  readonly clientId: string;
  readonly redirectUri: string;
  /** Whether the authorization request named `redirect_uri` (then the token request must repeat it, RFC 6749 §4.1.3). */
  readonly redirectUriSent: boolean;
  /** RFC 7636 S256 challenge, base64url. */
  readonly codeChallenge: string;
  readonly nonce?: string;
  readonly scopes: readonly string[];
  /** RFC 8707: the resource URIs authorized, the audience of its tokens; empty when none was requested. */
  readonly resources: readonly string[];
  /** RFC 9449 §10: the thumbprint of the DPoP key whose proof must come with the redemption. */
  readonly dpopJkt?: string;
  readonly subject: string;
  /** The sign-in session (`sid`). */
  readonly sessionId: string;
  /** Epoch seconds. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  readonly expiresAt: Date;
}

/** The access token a code was exchanged for, revoked if the code comes back (RFC 6749 §4.1.2). */
export interface IssuedFromCode {
  readonly jwtId: string;
  readonly expiresAt: Date;
}

/** RFC 9700 §4.5.3 (via OAuth 2.1): a code lives at most a minute. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;

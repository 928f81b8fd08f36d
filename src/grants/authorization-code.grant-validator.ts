import { Injectable } from '@nestjs/common';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { AuditSink } from '../platform/audit/audit-event';
import type { AuthorizationCode, IssuedFromCode } from '../tokens/authorization/authorization-code';
import { AuthorizationCodeService, isCodeVerifier, verifiesChallenge } from '../tokens/authorization/authorization-code.service';
import { MAX_PARAMETER_LENGTH } from '../protocol/form';
import { OAuthError } from '../protocol/oauth-error';
import { RefreshTokenService } from '../tokens/refresh-tokens/refresh-token.service';
import { authorizedResourceUris, narrowResources, scopesForResources } from '../identity/resources/resource-indicators';
import { SignInSessionService } from '../identity/sessions/sign-in-session.service';
import { UserDirectory } from '../identity/users/user-directory';
import { continueWith, type CodeRedemption } from './grant-continuation';
import type { GrantSuccess } from './grant-result';
import type { GrantContext, GrantValidator } from './grant-validator';

export const AUTHORIZATION_CODE_GRANT_TYPE = 'authorization_code';

/** RFC 6749 §4.1.3, RFC 7636 §4.5; decorators run bottom-up, presence first. A bad verifier is invalid_grant, below. */
export class AuthorizationCodeParameters {
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString({ message: 'code is required' })
  @IsNotEmpty({ message: 'code is required' })
  code!: string;

  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString()
  @IsOptional()
  redirect_uri?: string;

  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString()
  @IsOptional()
  code_verifier?: string;
}

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.6): a code is redeemed once, by its client, with the
 * redirect URI and the verifier of its authorization request, while its sign-in session lasts. A code that comes back revokes what it
 * was exchanged for (RFC 6749 §4.1.2): its access token and the refresh-token family issued with it.
 */
@Injectable()
export class AuthorizationCodeGrantValidator implements GrantValidator<AuthorizationCodeParameters> {
  readonly grantType = AUTHORIZATION_CODE_GRANT_TYPE;
  readonly parameters = AuthorizationCodeParameters;
  readonly resourceIndicators = true;
  // PKCE (RFC 7636) protects the code of a public client.
  readonly publicClients = true;
  readonly signsIn = true;
  readonly refreshTokens = true;

  constructor(
    private readonly codes: AuthorizationCodeService,
    private readonly users: UserDirectory,
    private readonly refreshTokenService: RefreshTokenService,
    private readonly audit: AuditSink,
    private readonly sessions: SignInSessionService,
  ) {}

  async validate(
    { code: handle, redirect_uri: redirectUri, code_verifier: verifier }: AuthorizationCodeParameters,
    context: GrantContext,
  ): Promise<GrantSuccess> {
    const { client } = context;
    const found = await this.codes.find(handle, client.clientId);
    if (found.outcome === 'unknown') throw OAuthError.invalidGrant('the authorization code is invalid');
    const { code } = found;
    // Checked before the code is used up: a wrong verifier or redirect_uri leaves it to the client
    // that holds the right ones. A code used already is a replay whatever else the request says.
    const narrowed = found.outcome === 'unused' ? narrowedRedemption(code, redirectUri, verifier, context) : {};
    const consumption = await this.codes.consume(code);
    if (consumption.outcome === 'replayed') return this.revokeReplayed(code, consumption.issued);
    // The directory itself, not the token endpoint's cached view: the user may have been disabled since signing in.
    const user = await this.users.findBySubjectId(code.subject);
    if (!user || !user.enabled) throw OAuthError.invalidGrant('the user is unknown or disabled');
    // Ended by logout, an operator, a new sign-in or the user's disabling since the code was issued.
    if (!(await this.sessions.isActive(code.sessionId))) throw OAuthError.invalidGrant('the sign-in session of the authorization code has ended');
    // The token endpoint issues the sign-in's tokens and binds them to the code (TokenResponseGenerator).
    const scopes = narrowed.scopes ?? code.scopes;
    return { subject: code.subject, scopes, continuation: continueWith({ kind: 'code_redemption', code, ...narrowed }) };
  }

  private async revokeReplayed(code: AuthorizationCode, issued: IssuedFromCode | undefined): Promise<never> {
    if (issued) await this.refreshTokenService.revokeIssuedFromCode(issued);
    this.audit.emit({ name: 'authorization_code.reuse_detected', clientId: code.clientId, subject: code.subject });
    throw OAuthError.invalidGrant('the authorization code has already been used');
  }
}

/**
 * The checks of an unused code, then RFC 8707 §2.2: `resource` at the token endpoint narrows the
 * resources the code was authorized for (the same ones again are fine), and the scopes with them.
 */
function narrowedRedemption(
  code: AuthorizationCode,
  redirectUri: string | undefined,
  verifier: string | undefined,
  { resourceIndicators: requested, resources, dpop }: GrantContext,
): Pick<CodeRedemption, 'scopes' | 'audience'> {
  requireMatchingRequest(code, redirectUri, verifier);
  // RFC 9449 §10: a bound code needs a proof of its key; without one it stays unused, like a wrong verifier.
  if (code.dpopJkt !== undefined && code.dpopJkt !== dpop?.jkt) {
    throw new OAuthError('invalid_dpop_proof', 'the authorization code is bound to another DPoP key, or no proof was sent');
  }
  if (requested.length === 0) return {};
  const audience = narrowResources(requested, authorizedResourceUris(code.resources, code.scopes, resources));
  return { audience, scopes: scopesForResources({ names: code.scopes, explicit: false }, requested, resources) };
}

/** RFC 6749 §4.1.3, RFC 7636 §4.6: the request matches the code's authorization request, and the code is fresh. */
function requireMatchingRequest(code: AuthorizationCode, redirectUri: string | undefined, verifier: string | undefined): void {
  if (code.expiresAt.getTime() <= Date.now()) throw OAuthError.invalidGrant('the authorization code has expired');
  // redirect_uri is required only when the authorization request had it; when sent, it must be the code's.
  if (redirectUri !== code.redirectUri && (code.redirectUriSent || redirectUri !== undefined)) {
    throw OAuthError.invalidGrant('redirect_uri is not the one of the authorization request');
  }
  if (verifier === undefined || !isCodeVerifier(verifier) || !verifiesChallenge(verifier, code.codeChallenge)) {
    throw OAuthError.invalidGrant('code_verifier does not match the code challenge');
  }
}

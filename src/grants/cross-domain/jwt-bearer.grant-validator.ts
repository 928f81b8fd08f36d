import { Inject, Injectable } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  AssertionReplayGuard,
  AuthorizationGrantIssuers,
  OAuthError,
  UserDirectory,
  type AuthorizationGrantIssuer,
  type GrantContext,
  type GrantSuccess,
  type GrantValidator,
} from '../../index';
import { assertionGrantResources, requestedResources } from './assertion-grant-resources';
import { assertionGrantScopes } from './assertion-grant-scope';
import { AssertionAudienceRule } from './assertion-audience.rule';
import { AssertionIdentifierRule } from './assertion-identifier.rule';
import { AssertionLifetimeRule } from './assertion-lifetime.rule';
import { AssertionSubject } from './assertion-subject';
import { AuthenticationTimeRule } from './authentication-time.rule';
import { AssertionTypeRule } from './assertion-type.rule';
import { CLOCK_SKEW_SECONDS, JWT_BEARER_GRANT_TYPE } from './cross-domain';
import { IdJagProfileRule, type IdJagBounds } from './id-jag-profile.rule';
import { unverifiedIssuer } from './unverified-issuer';

/** RFC 7523 §2.1 request parameters besides `grant_type` and `scope`. */
export class JwtBearerParameters {
  @MaxLength(16 * 1024, { message: 'assertion is longer than 16 KiB' })
  @IsString({ message: 'assertion must not be repeated' })
  @IsNotEmpty({ message: 'assertion is required' })
  assertion!: string;

  /** RFC 8707, repeatable: narrows an ID-JAG's `resource`, or names the token's audience. */
  @MaxLength(2048, { each: true, message: 'resource is longer than 2048 characters' })
  @ArrayMaxSize(16, { message: 'at most 16 resource values may be sent' })
  @IsString({ each: true, message: 'resource must be a URI' })
  @IsArray()
  @IsOptional()
  resource?: string[];
}

/**
 * The receiving half of cross-domain access (docs/chaining.md#receiving-the-jwt-bearer-grant): a JWT authorization grant
 * (RFC 7523 §2.1) of an authorization-grant issuer the client trusts — a plain one or an ID-JAG — is
 * redeemed for an access token of the user it names. Every refusal of the assertion is
 * `invalid_grant` naming the rule; an ID-JAG's `scope` and `resource` bound the token
 * (`invalid_scope`, `invalid_target`). Never a refresh token, never for a public client; an ID
 * token with `openid`, as for any grant that signs a user in.
 */
@Injectable()
export class JwtBearerGrantValidator implements GrantValidator<JwtBearerParameters> {
  readonly grantType = JWT_BEARER_GRANT_TYPE;
  readonly parameters = JwtBearerParameters;
  // The assertion's issuer authenticated the user: its auth_time is the token's (and an ID token's, with openid).
  readonly signsIn = true;
  private readonly types = new AssertionTypeRule();
  private readonly identifiers = new AssertionIdentifierRule();
  private readonly idJag = new IdJagProfileRule();
  private readonly subjects: AssertionSubject;

  constructor(
    @Inject(AuthorizationGrantIssuers) private readonly issuers: Pick<AuthorizationGrantIssuers, 'find' | 'verifySignature' | 'audience'>,
    @Inject(AssertionReplayGuard) private readonly replays: Pick<AssertionReplayGuard, 'firstUse'>,
    @Inject(UserDirectory) users: Pick<UserDirectory, 'findBySubjectId' | 'findByClaim'>,
  ) {
    this.subjects = new AssertionSubject(users);
  }

  async validate({ assertion, resource = [] }: JwtBearerParameters, context: GrantContext): Promise<GrantSuccess> {
    const issuer = await this.trustedIssuer(unverifiedIssuer(assertion), context.client.clientId);
    const { header, claims } = await this.issuers.verifySignature(assertion, issuer);
    const profile = this.types.profileOf(header);
    if (claims.iss !== issuer.issuer) throw OAuthError.invalidGrant('the assertion iss is not its signer');
    new AssertionAudienceRule(this.issuers.audience).check(claims);
    const expiresAt = new AssertionLifetimeRule(issuer.maxLifetimeSeconds, Math.floor(context.receivedAt / 1000)).check(claims);
    const jwtId = this.identifiers.check(claims);
    const authTime = new AuthenticationTimeRule(Math.floor(context.receivedAt / 1000)).check(claims);
    const bounds: IdJagBounds = profile === 'id-jag' ? this.idJag.check(claims, context.client.clientId) : {};
    // Last of the assertion's own checks: one that fails any of them is not used up.
    const expiry = new Date((expiresAt + CLOCK_SKEW_SECONDS) * 1000);
    if (!(await this.replays.firstUse(`jwt-bearer:${issuer.issuer}`, jwtId, expiry))) throw OAuthError.invalidGrant('the assertion was presented before (jti)');
    const user = await this.subjects.userOf(claims, issuer.userClaim);

    // RFC 8707 `resource` is read here rather than by the token endpoint: an ID-JAG's own may be the audience.
    const requested = requestedResources(resource, context.client, context.resources);
    const audience = assertionGrantResources(bounds.resources, requested, context.client, context.resources);
    const scopes = assertionGrantScopes(
      context.scopes,
      { identityScopes: issuer.identityScopes, assertionScopes: bounds.scopes, audience: audience?.map((api) => api.name) },
      context.resources,
    );
    return {
      subject: user.subjectId,
      scopes,
      ...(authTime === undefined ? {} : { authTime }),
      ...(audience ? { audience: audience.map((api) => api.uri ?? api.name) } : {}),
    };
  }

  private async trustedIssuer(iss: string, clientId: string): Promise<AuthorizationGrantIssuer> {
    const issuer = await this.issuers.find(iss);
    if (!issuer) throw OAuthError.invalidGrant(`the assertion's issuer ${iss.slice(0, 200)} is not a trusted authorization-grant issuer`);
    if (!issuer.trustedBy.includes(clientId)) throw OAuthError.invalidGrant(`the client does not accept assertions of ${issuer.issuer}`);
    return issuer;
  }
}

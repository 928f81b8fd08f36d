import { Inject, Injectable } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import { readMayActClaim, type ValidatedAccessToken } from '../access-token/access-token';
import type { Client } from '../../identity/clients/client';
import { parseJsonObject } from '../../protocol/json-object';
import { OAuthError } from '../../protocol/oauth-error';
import { UserDirectory } from '../../identity/users/user-directory';
import { ForeignJwtRejected, ForeignJwtVerifier } from '../../identity/trusted-issuers/foreign-jwt.verifier';
import { JwkSetResolver } from '../../identity/trusted-issuers/jwk-set.resolver';
import { TrustedIssuerStore } from '../../identity/trusted-issuers/trusted-issuer.store';

/** A subject token from a trusted subject issuer, read as the delegation rules read ours. */
export interface ExternalSubjectToken {
  readonly issuer: string;
  /** `sub` is the matched local user; `scopes` are the identity scopes the issuer may pass on. */
  readonly token: ValidatedAccessToken;
}

/**
 * Token exchange with the identity provider you already have (docs/delegation.md): a subject token
 * whose `iss` is a trusted subject issuer is verified with that issuer's keys (`aud` must contain
 * its expected audience, `exp`/`nbf` hold), accepted only from clients that trust the issuer, and
 * its subject matched to a local user of the user directory by the issuer's claim
 * (docs/delegation.md#matching-the-external-subject). Rejections are `invalid_token`.
 */
@Injectable()
export class ExternalSubjectTokenValidator {
  constructor(
    @Inject(TrustedIssuerStore) private readonly issuers: Pick<TrustedIssuerStore, 'find'>,
    @Inject(JwkSetResolver) private readonly keys: Pick<JwkSetResolver, 'forIssuer'>,
    @Inject(ForeignJwtVerifier) private readonly verifier: Pick<ForeignJwtVerifier, 'verify'>,
    @Inject(UserDirectory) private readonly users: Pick<UserDirectory, 'findByClaim'>,
  ) {}

  /** Undefined when the token does not name a trusted subject issuer: then it is judged as one of ours. */
  async validate(token: string, client: Client): Promise<ExternalSubjectToken | undefined> {
    const claimedIssuer = unverifiedIssuer(token);
    const issuer = claimedIssuer === undefined ? undefined : await this.issuers.find(claimedIssuer, 'subject');
    if (!issuer?.subject) return undefined;
    const policy = issuer.subject;
    if (!policy.trustedBy.includes(client.clientId)) throw rejected(`the client does not trust the subject token's issuer ${issuer.issuer}`);
    let payload: JWTPayload;
    try {
      payload = await this.verifier.verify(token, this.keys.forIssuer(issuer), { issuer: issuer.issuer, audience: [policy.audience] });
    } catch (error) {
      if (error instanceof ForeignJwtRejected) throw rejected(`the subject token of ${issuer.issuer} is not valid: ${error.reason}`);
      throw error;
    }
    const matchValue = payload[policy.userClaim];
    const user =
      typeof matchValue === 'string' && matchValue.length > 0 && matchValue.length <= 1000
        ? await this.users.findByClaim(policy.userClaim, matchValue)
        : undefined;
    if (!user || !user.enabled) throw rejected(`no local user matches the subject token's ${policy.userClaim}`);
    const mayAct = payload.may_act === undefined ? undefined : readMayActClaim(payload.may_act);
    if (payload.may_act !== undefined && !mayAct) throw rejected('the subject token may_act claim is malformed');
    const now = Math.floor(Date.now() / 1000);
    return {
      issuer: issuer.issuer,
      token: {
        jwtId: typeof payload.jti === 'string' ? payload.jti : '',
        subject: user.subjectId,
        clientId: typeof payload.client_id === 'string' ? payload.client_id : '',
        scopes: policy.identityScopes,
        audiences: typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []),
        issuedAt: payload.iat ?? now,
        expiresAt: payload.exp ?? now,
        authTime: typeof payload.auth_time === 'number' ? payload.auth_time : undefined,
        ...(mayAct ? { mayAct } : {}),
      },
    };
  }
}

/** The `iss` a JWT claims, read before any key is chosen; undefined for anything that is not a JWT. */
function unverifiedIssuer(token: string): string | undefined {
  const segments = token.split('.');
  if (segments.length !== 3 || segments[1].length > 16 * 1024) return undefined;
  const iss = parseJsonObject(Buffer.from(segments[1], 'base64url').toString('utf8'))?.iss;
  return typeof iss === 'string' ? iss : undefined;
}

function rejected(description: string): OAuthError {
  return OAuthError.invalidToken(description);
}

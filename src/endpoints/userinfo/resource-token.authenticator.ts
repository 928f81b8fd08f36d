import { Inject, Injectable } from '@nestjs/common';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { AccessTokenValidator } from '../../tokens/access-token/access-token.validator';
import { DPOP_ALGS, DpopProofVerifier, type DpopHeader } from '../../tokens/dpop/dpop-proof.verifier';
import { extractAccessToken, type BearerTokenCarrier, type PresentedAccessToken } from '../../protocol/bearer-token';
import { OAuthError } from '../../protocol/oauth-error';

/** What a protected resource reads of its request. */
export interface ResourceRequest extends BearerTokenCarrier {
  readonly headers: BearerTokenCarrier['headers'] & { readonly dpop?: DpopHeader };
}

/**
 * Authenticates a request to a resource of this service (docs/endpoints.md#userinfo): a `Bearer`
 * token (RFC 6750) that is not DPoP-bound, or a bound token under the `DPoP` scheme with a proof of
 * its key for this request and token (RFC 9449 §7). Rejections under the DPoP scheme carry its
 * challenge; the Bearer challenge is the route's (`OAuthRoute`).
 */
@Injectable()
export class ResourceTokenAuthenticator {
  constructor(
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
    @Inject(DpopProofVerifier) private readonly dpop: Pick<DpopProofVerifier, 'forResource'>,
  ) {}

  async authenticate(request: ResourceRequest, path: string): Promise<ValidatedAccessToken> {
    const presented = extractAccessToken(request);
    if (presented === undefined) throw OAuthError.missingBearerToken();
    const token = await this.accessTokens.validate(presented.token).catch(withChallenge(presented.scheme));
    if (presented.scheme === 'Bearer') {
      // RFC 9449 §7.2: a bound token is not a bearer token.
      if (token.confirmation) throw challenged(OAuthError.invalidToken('the access token is DPoP-bound: present it with the DPoP scheme and a proof'), 'DPoP');
      return token;
    }
    await this.requireProof(request, presented, token, path);
    return token;
  }

  private async requireProof(request: ResourceRequest, presented: PresentedAccessToken, token: ValidatedAccessToken, path: string): Promise<void> {
    if (!token.confirmation) throw challenged(OAuthError.invalidToken('the access token is not DPoP-bound'), 'DPoP');
    const proof = await this.dpop.forResource(request.headers.dpop, request.method, path, presented.token).catch(withChallenge('DPoP'));
    if (proof.jkt !== token.confirmation.jkt) {
      throw challenged(new OAuthError('invalid_dpop_proof', 'the DPoP proof is not signed with the key the access token is bound to'), 'DPoP');
    }
  }
}

/** RFC 9449 §7.1: a rejection under the DPoP scheme is a 401 (403 for scope) with the DPoP challenge. */
function challenged(error: OAuthError, scheme: PresentedAccessToken['scheme']): OAuthError {
  if (scheme === 'Bearer') return error;
  const status = error.code === 'invalid_dpop_proof' || error.code === 'use_dpop_nonce' ? 401 : error.status;
  return new OAuthError(error.code, error.description, { ...error.options, status, challenge: 'DPoP', algs: DPOP_ALGS, cause: error });
}

function withChallenge(scheme: PresentedAccessToken['scheme']): (error: unknown) => never {
  return (error) => {
    if (error instanceof OAuthError) throw challenged(error, scheme);
    throw error;
  };
}

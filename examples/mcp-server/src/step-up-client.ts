import { createMiddleware, extractWWWAuthenticateParams, type Middleware } from '@modelcontextprotocol/client';

/**
 * RFC 9470 on the client side. The SDK's client answers every 401 alike: a refresh if it holds a
 * refresh token (which brings a token of the same sign-in, so the server refuses it again), else a new
 * authorization request without `acr_values`. A client that is told `insufficient_user_authentication`
 * must instead send the user to sign in again with the `acr_values` of the challenge.
 */
export class StepUp {
  /** The `acr_values` of the last challenge, until an authorization request carries them. */
  private pending?: string;

  /**
   * A client middleware for the transport's `fetch`: on a 401 `insufficient_user_authentication` it
   * notes `acr_values` and drops the stored tokens, so that the SDK's answer to the 401 is a sign-in.
   */
  middleware(dropTokens: () => void | Promise<void>): Middleware {
    return createMiddleware(async (next, input, init) => {
      const response = await next(input, init);
      if (response.status !== 401 || extractWWWAuthenticateParams(response).error !== 'insufficient_user_authentication') return response;
      this.pending = /acr_values="([^"]*)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1];
      await dropTokens();
      return response;
    });
  }

  /** The SDK's authorization URL, with the pending `acr_values` (OpenID Connect Core §3.1.2.1); for `redirectToAuthorization`. */
  authorizationUrl(url: URL): URL {
    if (this.pending) url.searchParams.set('acr_values', this.pending);
    this.pending = undefined;
    return url;
  }
}

import { Browser, locationParameters, pkce } from './browser';
import { postForm, requestToken, type HttpResponse } from './http';

export interface CodeFlowSignIn {
  readonly baseUrl: string;
  readonly clientId: string;
  /** Absent for a public client. */
  readonly secret?: string;
  readonly redirectUri: string;
  readonly username: string;
  readonly password: string;
  readonly scope?: string;
}

/**
 * A browser signed in through the authorization code flow with PKCE, for a client that needs no
 * consent: the browser (with its session cookie) and the token response of the code's redemption.
 */
export async function signInWithCode({
  baseUrl,
  clientId,
  secret,
  redirectUri,
  username,
  password,
  scope = 'openid',
}: CodeFlowSignIn): Promise<{ browser: Browser; tokens: HttpResponse }> {
  const browser = new Browser();
  const { verifier, challenge } = pkce();
  const authorize = `${baseUrl}/connect/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    nonce: 'n-0S6_WzA2Mj',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  const redirect = await browser.submit(baseUrl, await (await browser.get(authorize)).text(), { username, password });
  const redemption = { grant_type: 'authorization_code', code: locationParameters(redirect).code, redirect_uri: redirectUri, code_verifier: verifier };
  const tokens =
    secret === undefined
      ? await postForm(`${baseUrl}/connect/token`, { ...redemption, client_id: clientId })
      : await requestToken(baseUrl, clientId, secret, redemption);
  return { browser, tokens };
}

import * as oidc from 'openid-client';
import { ISSUER, type TestServer } from './create-test-app';
import { basic, postForm, requestToken, type HttpResponse } from './http';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface ClientCredentials {
  readonly clientId: string;
  readonly secret: string;
}

export const FRONTEND: ClientCredentials = { clientId: 'frontend', secret: 'frontend-secret' };
export const API1: ClientCredentials = { clientId: 'api1', secret: 'api1-secret' };
export const M2M: ClientCredentials = { clientId: 'm2m', secret: 'm2m-secret' };

/** A password-grant token response (with a refresh token when `offline_access` is in scope). */
export async function passwordTokens(
  url: string,
  scope: string,
  { client = FRONTEND, username = 'alice', password = username }: { client?: ClientCredentials; username?: string; password?: string } = {},
): Promise<{ access_token: string; refresh_token?: string; scope: string }> {
  const response = await requestToken(url, client.clientId, client.secret, { grant_type: 'password', username, password, scope });
  if (response.status !== 200) throw new Error(`password grant failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

export function refresh(url: string, refreshToken: string, extra: Record<string, string> = {}, client: ClientCredentials = FRONTEND): Promise<HttpResponse> {
  return requestToken(url, client.clientId, client.secret, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
}

export function introspect(url: string, client: ClientCredentials, form: Record<string, string | string[]>): Promise<HttpResponse> {
  return postForm(`${url}/connect/introspect`, form, { authorization: basic(client.clientId, client.secret) });
}

export function revoke(url: string, client: ClientCredentials, form: Record<string, string | string[]>): Promise<HttpResponse> {
  return postForm(`${url}/connect/revocation`, form, { authorization: basic(client.clientId, client.secret) });
}

export function userinfo(url: string, accessToken: string): Promise<HttpResponse> {
  return fetch(`${url}/connect/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } }).then(async (response) => ({
    status: response.status,
    headers: response.headers,
    body: await response.text(),
  }));
}

/** openid-client configured by discovery of the test server, whose issuer is http://tollgate.test. */
export async function openIdClient(server: TestServer, client: ClientCredentials): Promise<oidc.Configuration> {
  const routeToTestServer: oidc.CustomFetch = (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit);
  return oidc.discovery(new URL(ISSUER), client.clientId, undefined, oidc.ClientSecretBasic(client.secret), {
    [oidc.customFetch]: routeToTestServer,
    execute: [oidc.allowInsecureRequests],
  });
}

/**
 * What a loaded machine may add to a bound the service promises (a cache's TTL, a reload's period): the
 * specs run on two shared cores, where one request can take seconds. A spec that waits for something
 * promised "within N ms" waits N ms plus this, so that only "never" fails it.
 */
export const LOAD_MARGIN_MS = 15_000;

/** Polls `check` until it returns true, for `withinMs` (what is promised) plus LOAD_MARGIN_MS; returns the elapsed milliseconds or throws. */
export async function eventually(check: () => Promise<boolean>, withinMs: number, intervalMs = 100): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > withinMs + LOAD_MARGIN_MS) throw new Error(`not true within ${withinMs} ms (+ ${LOAD_MARGIN_MS} ms for load)`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * A relying party written with openid-client, as an application would: `/login` starts the
 * authorization code flow (PKCE, state, nonce), `/callback` redeems the code and reads userinfo,
 * `/` shows who is signed in, `/logout` goes through RP-initiated logout. One visitor at a time.
 *
 *   node dist/examples/relying-party.js           # the demo `spa` client on http://127.0.0.1:5173
 *   ISSUER=… CLIENT_ID=… CLIENT_SECRET=… PORT=… SCOPE=… node dist/examples/relying-party.js
 *
 * The README's walk-through uses it; test/e2e/browser-sign-in.e2e-spec.ts drives it with Chromium.
 */
import { createServer, type IncomingMessage } from 'node:http';
import * as oidc from 'openid-client';

export interface RelyingPartyOptions {
  readonly issuer: string;
  readonly port: number;
  readonly clientId: string;
  /** Absent for a public client. */
  readonly clientSecret?: string;
  readonly scope: string;
  /** Shows the access token on the page: for the walk-through, never in a real application. */
  readonly showAccessToken?: boolean;
}

export interface RelyingParty {
  readonly url: string;
  close(): Promise<void>;
}

type Result = { readonly redirect: string } | { readonly html: string };

/** Long values (tokens, JSON, error descriptions) wrap instead of widening the page past a phone's screen. */
const PAGE_HEAD =
  '<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><title>Relying party</title>' +
  '<style>body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}pre,code,p{white-space:pre-wrap;overflow-wrap:anywhere}</style>';

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export async function startRelyingParty(options: RelyingPartyOptions): Promise<RelyingParty> {
  const url = `http://127.0.0.1:${options.port}`;
  const auth = options.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(options.clientSecret);
  const execute = new URL(options.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
  const config = await oidc.discovery(new URL(options.issuer), options.clientId, undefined, auth, { execute });
  let pending: { verifier: string; state: string; nonce: string } | undefined;
  let signedIn: { idToken: string; accessToken: string; userinfo: oidc.UserInfoResponse } | undefined;

  const routes: Record<string, (request: IncomingMessage) => Promise<Result>> = {
    '/login': async () => {
      pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
      const target = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${url}/callback`,
        scope: options.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { redirect: target.href };
    },
    '/callback': async (request) => {
      if (!pending) return { redirect: '/' };
      // RFC 6749 §4.1.2.1: the user said no (access_denied), or the request was refused.
      const error = new URL(request.url ?? '/', url).searchParams;
      if (error.has('error')) {
        pending = undefined;
        const description = error.get('error_description');
        return {
          html:
            `<h1 id="not-signed-in">Not signed in</h1><p>The authorization server answered <code>${escape(error.get('error')!)}</code>` +
            `${description ? `: ${escape(description)}` : ''}.</p><a href="/login">Sign in</a>`,
        };
      }
      const tokens = await oidc.authorizationCodeGrant(config, new URL(request.url ?? '/', url), {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      pending = undefined;
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
      signedIn = { idToken: tokens.id_token!, accessToken: tokens.access_token, userinfo };
      return { redirect: '/' };
    },
    '/logout': async () => {
      if (!signedIn) return { redirect: '/' };
      const target = oidc.buildEndSessionUrl(config, { id_token_hint: signedIn.idToken, post_logout_redirect_uri: `${url}/`, state: 'signed-out' });
      signedIn = undefined;
      return { redirect: target.href };
    },
  };

  const home = (): Result => ({
    html: signedIn
      ? `<h1>Signed in</h1><pre id="userinfo">${escape(JSON.stringify(signedIn.userinfo, null, 2))}</pre>` +
        (options.showAccessToken ? `<p>Access token:</p><pre id="access-token">${escape(signedIn.accessToken)}</pre>` : '') +
        '<a href="/logout">Sign out</a>'
      : '<h1 id="anonymous">Not signed in</h1><a href="/login">Sign in</a>',
  });

  const server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', url).pathname];
    (route ? route(request) : Promise.resolve(home()))
      .then((result) =>
        'redirect' in result
          ? response.writeHead(302, { location: result.redirect }).end()
          : response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`${PAGE_HEAD}${result.html}`),
      )
      .catch((error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`relying party error: ${error.message}`));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

if (require.main === module) {
  const env = process.env;
  startRelyingParty({
    issuer: env.ISSUER ?? 'http://localhost:5000',
    port: Number(env.PORT ?? 5173),
    clientId: env.CLIENT_ID ?? 'spa',
    clientSecret: env.CLIENT_SECRET,
    scope: env.SCOPE ?? 'openid profile email api1',
    showAccessToken: true,
  }).then(
    (party) => console.log(`Relying party on ${party.url}: open it in a browser and select "Sign in"`),
    (error: Error) => {
      console.error(`Relying party failed to start: ${error.message}`);
      process.exit(1);
    },
  );
}

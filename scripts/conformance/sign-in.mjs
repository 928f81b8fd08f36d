// The user of a headless conformance run: signs a user in at Tollgate through the login and consent
// forms, as a browser would (cookies kept, forms submitted with their hidden fields, redirects not
// followed), and answers where Tollgate sends the browser back: the client's redirect URI with the
// code. Plain JavaScript: scripts/conformance/run.mjs runs before anything is compiled for it.

/** A cookie jar for one origin and fetch without following redirects. */
class Browser {
  cookies = new Map();

  async get(url) {
    return this.keep(await fetch(url, { redirect: 'manual', headers: this.headers(), signal: AbortSignal.timeout(30_000) }));
  }

  async post(url, form) {
    const headers = { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' };
    return this.keep(await fetch(url, { method: 'POST', redirect: 'manual', body: new URLSearchParams(form), headers, signal: AbortSignal.timeout(30_000) }));
  }

  headers() {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  keep(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (value === '' || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (value) => value.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);

/** The first form of one of Tollgate's pages (views/): its action and hidden inputs. */
export function readForm(html) {
  const form = /<form\b[^>]*>/.exec(html)?.[0];
  if (!form) throw new Error(`no form in the page: ${html.slice(0, 300)}`);
  const attribute = (tag, name) => decode(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
  const hidden = {};
  for (const [input] of html.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) hidden[attribute(input, 'name')] = attribute(input, 'value');
  return { action: attribute(form, 'action'), hidden };
}

/**
 * Opens `authorizationUrl`, signs `username` in with `password` on the login page, allows on the
 * consent page when one is shown (a first-party client has none), follows Tollgate's redirects to its
 * own pages, and answers the first redirect that leaves Tollgate: the client's redirect URI with
 * `code`, `state` and `iss` (or with `error`). A page that is neither is an Error that shows it.
 */
export async function signIn(authorizationUrl, { username, password }) {
  const browser = new Browser();
  const tollgate = new URL(authorizationUrl).origin;
  let response = await browser.get(authorizationUrl);
  let signedIn = false;
  for (let step = 0; step < 10; step++) {
    const location = response.headers.get('location');
    if ((response.status === 302 || response.status === 303) && location) {
      const target = new URL(location, response.url);
      if (target.origin !== tollgate) return target.href;
      response = await browser.get(target.href);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`the sign-in ended on a ${response.status} page: ${page.slice(0, 300)}`);
    // The login page first; after it, the consent page (the decision buttons) or the login page again.
    const fields = signedIn ? { decision: 'allow' } : { username, password };
    if (signedIn && !page.includes('name="decision"')) throw new Error(`the sign-in did not go past the login page: ${page.slice(0, 300)}`);
    signedIn = true;
    const { action, hidden } = readForm(page);
    response = await browser.post(new URL(action, response.url).href, { ...hidden, ...fields });
  }
  throw new Error('the sign-in took more than 10 steps');
}

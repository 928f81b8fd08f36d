'use strict';
/**
 * What the authorization scenarios need of a browser: cookies kept per name, redirects not followed,
 * a page's first form read (its action and hidden fields) and submitted. Pages are Tollgate's own
 * (views/*.eta), so reading them with regular expressions is enough here.
 */

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (value) => value.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
const attribute = (tag, name) => decode(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');

/** The first form of a page: its action and hidden inputs. */
function readForm(html) {
  const form = /<form\b[^>]*>/.exec(html)?.[0];
  if (!form) throw new Error(`no form in the page: ${html.slice(0, 300)}`);
  /** @type {Record<string, string>} */
  const hidden = {};
  for (const [input] of html.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) hidden[attribute(input, 'name')] = attribute(input, 'value');
  return { action: attribute(form, 'action'), hidden };
}

class Browser {
  /** @type {Map<string, string>} */
  cookies = new Map();

  /** @param {string} url */
  async get(url) {
    return this.keep(await fetch(url, { redirect: 'manual', headers: this.headers() }));
  }

  /** Submits the page's first form with its hidden fields and `fields`; resolves with the response. */
  async submit(baseUrl, html, fields) {
    const { action, hidden } = readForm(html);
    const response = await fetch(new URL(action, baseUrl), {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ...hidden, ...fields }).toString(),
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    return this.keep(response);
  }

  /** The Cookie header the browser would send. */
  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** @returns {Record<string, string>} */
  headers() {
    return this.cookies.size === 0 ? {} : { cookie: this.cookieHeader() };
  }

  /** @param {Response} response */
  keep(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (value === '' || attributes.some((part) => /^\s*max-age=0$/i.test(part))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

module.exports = { Browser, readForm };

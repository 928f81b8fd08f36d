import { createHash, randomBytes } from 'node:crypto';

/** A browser without a browser: cookies kept per name, redirects not followed, forms read from HTML. */
export class Browser {
  readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    return this.keep(await fetch(url, { redirect: 'manual', headers: this.headers() }));
  }

  async post(url: string, form: Record<string, string>): Promise<Response> {
    return this.keep(
      await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams(form).toString(),
        headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
  }

  /** Submits the page's form with its hidden fields plus `fields`, to the server at `baseUrl`. */
  async submit(baseUrl: string, html: string, fields: Record<string, string>): Promise<Response> {
    const { action, hidden } = readForm(html);
    return this.post(new URL(action, baseUrl).toString(), { ...hidden, ...fields });
  }

  private headers(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
      if (value === '' || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (value: string) => value.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);

/** The first form of a page: its action and hidden inputs. */
export function readForm(html: string): { action: string; method: string; hidden: Record<string, string> } {
  const form = /<form\b[^>]*>/.exec(html)?.[0];
  if (!form) throw new Error(`no form in page: ${html.slice(0, 500)}`);
  const attribute = (tag: string, name: string) => decode(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
  const hidden: Record<string, string> = {};
  for (const [input] of html.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) hidden[attribute(input, 'name')] = attribute(input, 'value');
  return { action: attribute(form, 'action'), method: attribute(form, 'method'), hidden };
}

/** An RFC 7636 verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The query parameters of a redirect's Location. */
export function locationParameters(response: Response): Record<string, string> {
  const location = response.headers.get('location');
  if (!location) throw new Error(`no Location header (status ${response.status})`);
  return Object.fromEntries(new URL(location).searchParams);
}

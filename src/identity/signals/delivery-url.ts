import { isLoopbackHost } from '../clients/self-registered/outbound-address.policy';

const MAX_URL_LENGTH = 2000;

/**
 * Why Tollgate will not deliver to `url` (a `backchannel_logout_uri` or a stream's `endpoint_url`), or
 * undefined: https, or http on a loopback host while the issuer is http (development), as for
 * client ID metadata documents (docs/signals.md#delivery). The address it resolves to is checked
 * again when it is delivered to (the guarded fetcher: no private addresses).
 */
export function deliveryUrlProblem(url: string, allowLoopbackHttp: boolean): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry user information';
  if (url.includes('#')) return 'must not have a fragment';
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) {
    return allowLoopbackHttp ? undefined : 'may be http only while the issuer is http (development)';
  }
  return 'must be https (http only on a loopback host, while the issuer is http)';
}

import { isIP } from 'node:net';

/** The WebAuthn relying party this service is (docs/passkeys.md): the issuer's host and origin. */
export interface RelyingParty {
  /** WebAuthn §5.1.2 RP ID: the issuer's host name, without port. */
  readonly id: string;
  /** The issuer's origin, which clientDataJSON must name. */
  readonly origin: string;
  /**
   * Browsers offer WebAuthn only in a secure context, on a domain (not an IP address): https, or
   * http://localhost. Elsewhere (http://127.0.0.1) the pages show no passkey controls.
   */
  readonly available: boolean;
}

export const RELYING_PARTY_NAME = 'Tollgate';

export function relyingPartyOf(issuer: string): RelyingParty {
  const url = new URL(issuer);
  const host = url.hostname;
  const localhost = host === 'localhost' || host.endsWith('.localhost');
  const available = isIP(host.replace(/^\[|\]$/g, '')) === 0 && (url.protocol === 'https:' || (url.protocol === 'http:' && localhost));
  return { id: host, origin: url.origin, available };
}

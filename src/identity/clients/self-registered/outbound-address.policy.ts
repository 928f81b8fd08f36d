import ipaddr from 'ipaddr.js';

/**
 * Which addresses Tollgate may connect to when it fetches what a client names (docs/agents.md#ssrf):
 * public unicast addresses only, as ipaddr.js classifies them. Loopback, private, link-local,
 * carrier-grade NAT, multicast, documentation and every other special-purpose range (RFC 6890) are
 * refused; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries. With
 * `allowLoopback` (an http issuer: development), loopback addresses are allowed too.
 */
export class OutboundAddressPolicy {
  constructor(private readonly allowLoopback: boolean) {}

  allows(address: string): boolean {
    const range = addressRange(address);
    return range === 'unicast' || (this.allowLoopback && range === 'loopback');
  }
}

/** ipaddr.js's range name of an address (`unicast` for a public one), `invalid` when it is not an address. */
export function addressRange(address: string): string {
  const literal = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(literal)) return 'invalid';
  // A zone index (fe80::1%eth0) is only ever link-local; ipaddr.process keeps it.
  return ipaddr.process(literal).range();
}

/** A host name that is a loopback name or address: `localhost`, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || addressRange(host) === 'loopback';
}

import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client address is counted under: an IPv4 address as it is (also when written as an
 * IPv4-mapped IPv6 address), an IPv6 address by its /64 prefix — one host usually holds a whole /64,
 * so counting single IPv6 addresses would give an attacker 2⁶⁴ budgets.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address.slice(0, 64);
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('%')[0].split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const missing = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...missing, ...right].map((group) => (group.includes('.') ? group : group.toLowerCase().replace(/^0+(?=.)/, '')));
}

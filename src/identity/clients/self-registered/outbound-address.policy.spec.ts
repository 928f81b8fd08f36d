import { OutboundAddressPolicy, addressRange, isLoopbackHost } from './outbound-address.policy';

describe('OutboundAddressPolicy.allows', () => {
  const production = new OutboundAddressPolicy(false);
  const development = new OutboundAddressPolicy(true);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00::1', 'IPv6 unique local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'documentation'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['64:ff9b::a00:1', 'NAT64 (embeds 10.0.0.1)'],
    ['2002:a00:1::', '6to4 (embeds 10.0.0.1)'],
    ['not-an-address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(production.allows(address)).toBe(false);
  });

  it('allows public unicast addresses, IPv4 and IPv6', () => {
    expect(['93.184.215.14', '8.8.8.8', '2606:4700::6810:84e5', '::ffff:93.184.215.14'].map((a) => production.allows(a))).toEqual([true, true, true, true]);
  });

  it('allows loopback only in development, and never private or link-local', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map((a) => development.allows(a))).toEqual([true, true, true]);
    expect(['10.0.0.1', '169.254.169.254', 'fe80::1'].map((a) => development.allows(a))).toEqual([false, false, false]);
  });
});

describe('addressRange', () => {
  it('reads bracketed IPv6 literals', () => {
    expect(addressRange('[::1]')).toBe('loopback');
  });
});

describe('isLoopbackHost', () => {
  it('recognises loopback names and addresses only', () => {
    expect(['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.9.9.9', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['example.com', '10.0.0.1', 'localhost.example.com', '[fe80::1]'].some(isLoopbackHost)).toBe(false);
  });
});

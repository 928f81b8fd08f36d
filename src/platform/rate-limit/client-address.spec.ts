import { addressKey } from './client-address';

describe('addressKey', () => {
  it.each([
    ['an IPv4 address', '192.0.2.1', '192.0.2.1'],
    ['an IPv4-mapped IPv6 address', '::ffff:192.0.2.1', '192.0.2.1'],
    ['an IPv6 address', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['a compressed IPv6 address', '2001:DB8::1', '2001:db8:0:0::/64'],
    ['IPv6 loopback', '::1', '0:0:0:0::/64'],
    ['a zoned IPv6 address', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('keys %s', (_, address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('keys every address of one IPv6 /64 alike', () => {
    expect(addressKey('2001:db8:a:b::1')).toBe(addressKey('2001:db8:a:b:ffff:ffff:ffff:ffff'));
  });
});

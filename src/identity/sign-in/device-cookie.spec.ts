import { randomBytes } from 'node:crypto';
import { DeviceCookies } from './device-cookie';

describe('DeviceCookies', () => {
  const key = randomBytes(32);
  let now: number;
  let cookies: DeviceCookies;
  beforeEach(() => {
    now = 1_900_000_000_000;
    cookies = new DeviceCookies([key], 90 * 86_400, false, () => now);
  });

  describe('verify', () => {
    it.each([
      ['no cookie', undefined],
      ['an empty value', ''],
      ['garbage', 'not-a-device-cookie'],
      ['an over-long value', `d1.${'a'.repeat(5000)}`],
    ])('refuses %s', (_, value) => {
      expect(cookies.verify(value, 'alice')).toBeUndefined();
    });

    it('refuses a cookie issued for another username', () => {
      expect(cookies.verify(cookies.issue('bob'), 'alice')).toBeUndefined();
    });

    it('refuses a cookie whose device id, expiry or MAC was changed', () => {
      const [version, deviceId, expires, mac] = cookies.issue('alice').split('.');
      const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
      expect(cookies.verify([version, flip(deviceId), expires, mac].join('.'), 'alice')).toBeUndefined();
      expect(cookies.verify([version, deviceId, String(Number(expires) + 86_400), mac].join('.'), 'alice')).toBeUndefined();
      expect(cookies.verify([version, deviceId, expires, flip(mac)].join('.'), 'alice')).toBeUndefined();
    });

    it('refuses a cookie signed with another key', () => {
      const other = new DeviceCookies([randomBytes(32)], 90 * 86_400, false, () => now);
      expect(cookies.verify(other.issue('alice'), 'alice')).toBeUndefined();
    });

    it('refuses an expired cookie', () => {
      const value = cookies.issue('alice');
      now += 90 * 86_400_000;
      expect(cookies.verify(value, 'alice')).toBeUndefined();
    });

    it('refuses everything when device cookies are off', () => {
      const value = cookies.issue('alice');
      expect(new DeviceCookies([key], 0, false, () => now).verify(value, 'alice')).toBeUndefined();
    });

    it('accepts its own cookie for the same username until it expires, and names the device', () => {
      const value = cookies.issue('alice');
      const deviceId = cookies.verify(value, 'alice');
      expect(deviceId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(value).toContain(deviceId);
      now += 90 * 86_400_000 - 1000;
      expect(cookies.verify(value, 'alice')).toBe(deviceId);
    });

    it('accepts a cookie signed with a previous key', () => {
      const previous = randomBytes(32);
      const value = new DeviceCookies([previous], 86_400, false, () => now).issue('alice');
      expect(new DeviceCookies([key, previous], 86_400, false, () => now).verify(value, 'alice')).toBeDefined();
    });
  });

  describe('issue', () => {
    it('gives every sign-in a new device id and never names the user in clear', () => {
      const first = cookies.issue('alice');
      const second = cookies.issue('alice');
      expect(cookies.verify(first, 'alice')).not.toBe(cookies.verify(second, 'alice'));
      expect(first).not.toContain('alice');
    });
  });

  describe('setCookie and deviceOf', () => {
    it('sets tollgate.device, HttpOnly and SameSite=Lax, for the lifetime, and reads it back from a Cookie header', () => {
      const [header] = cookies.setCookie('alice');
      expect(header).toMatch(/^tollgate\.device=d1\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}; Max-Age=7776000; Path=\/; HttpOnly; SameSite=Lax$/);
      const value = header.slice('tollgate.device='.length, header.indexOf(';'));
      expect(cookies.deviceOf(`other=1; tollgate.device=${value}`, 'alice')).toBe(cookies.verify(value, 'alice'));
      expect(cookies.deviceOf(`tollgate.device=${value}`, 'bob')).toBeUndefined();
      expect(cookies.deviceOf(undefined, 'alice')).toBeUndefined();
    });

    it('names it __Host-tollgate.device and marks it Secure when the issuer is https', () => {
      const secure = new DeviceCookies([key], 86_400, true, () => now);
      const [header] = secure.setCookie('alice');
      expect(header).toMatch(/^__Host-tollgate\.device=.*; Secure; SameSite=Lax$/);
      const value = header.slice('__Host-tollgate.device='.length, header.indexOf(';'));
      expect(secure.deviceOf(`tollgate.device=${value}`, 'alice')).toBeUndefined();
      expect(secure.deviceOf(`__Host-tollgate.device=${value}`, 'alice')).toBeDefined();
    });

    it('sets nothing when device cookies are off', () => {
      expect(new DeviceCookies([key], 0, false, () => now).setCookie('alice')).toEqual([]);
    });
  });
});

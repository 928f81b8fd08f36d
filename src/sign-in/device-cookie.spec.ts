import { randomBytes } from 'node:crypto';
import { DeviceCookies } from './device-cookie';

describe('DeviceCookies', () => {
  const key = randomBytes(32);
  let now: number;
  let cookies: DeviceCookies;
  beforeEach(() => {
    now = 1_900_000_000_000;
    cookies = new DeviceCookies([key], 90 * 86_400, () => now);
  });

  describe('deviceOf', () => {
    it.each([
      ['no cookie', undefined],
      ['an empty value', ''],
      ['garbage', 'not-a-device-cookie'],
      ['an over-long value', `d1.${'a'.repeat(5000)}`],
    ])('refuses %s', (_, value) => {
      expect(cookies.deviceOf(value, 'alice')).toBeUndefined();
    });

    it('refuses a cookie issued for another username', () => {
      expect(cookies.deviceOf(cookies.issue('bob'), 'alice')).toBeUndefined();
    });

    it('refuses a cookie whose device id, expiry or MAC was changed', () => {
      const [version, deviceId, expires, mac] = cookies.issue('alice').split('.');
      const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
      expect(cookies.deviceOf([version, flip(deviceId), expires, mac].join('.'), 'alice')).toBeUndefined();
      expect(cookies.deviceOf([version, deviceId, String(Number(expires) + 86_400), mac].join('.'), 'alice')).toBeUndefined();
      expect(cookies.deviceOf([version, deviceId, expires, flip(mac)].join('.'), 'alice')).toBeUndefined();
    });

    it('refuses a cookie signed with another key', () => {
      const other = new DeviceCookies([randomBytes(32)], 90 * 86_400, () => now);
      expect(cookies.deviceOf(other.issue('alice'), 'alice')).toBeUndefined();
    });

    it('refuses an expired cookie', () => {
      const value = cookies.issue('alice');
      now += 90 * 86_400_000;
      expect(cookies.deviceOf(value, 'alice')).toBeUndefined();
    });

    it('refuses everything when device cookies are off', () => {
      const value = cookies.issue('alice');
      expect(new DeviceCookies([key], 0, () => now).deviceOf(value, 'alice')).toBeUndefined();
    });

    it('accepts its own cookie for the same username until it expires, and names the device', () => {
      const value = cookies.issue('alice');
      const deviceId = cookies.deviceOf(value, 'alice');
      expect(deviceId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(value).toContain(deviceId);
      now += 90 * 86_400_000 - 1000;
      expect(cookies.deviceOf(value, 'alice')).toBe(deviceId);
    });

    it('accepts a cookie signed with a previous key', () => {
      const previous = randomBytes(32);
      const value = new DeviceCookies([previous], 86_400, () => now).issue('alice');
      expect(new DeviceCookies([key, previous], 86_400, () => now).deviceOf(value, 'alice')).toBeDefined();
    });
  });

  describe('issue', () => {
    it('gives every sign-in a new device id and never names the user in clear', () => {
      const first = cookies.issue('alice');
      const second = cookies.issue('alice');
      expect(cookies.deviceOf(first, 'alice')).not.toBe(cookies.deviceOf(second, 'alice'));
      expect(first).not.toContain('alice');
    });
  });
});

import { decidePoll, type DeviceAuthorization } from './device-authorization';

const now = new Date('2026-01-01T12:00:00Z');
const seconds = (n: number) => new Date(now.getTime() + n * 1000);
const pending: DeviceAuthorization = {
  clientId: 'tv',
  userCode: 'BCDFGHJK',
  scopes: ['openid'],
  status: 'pending',
  intervalSeconds: 5,
  expiresAt: seconds(600),
};
const approval = { subject: 'alice', sessionId: 'sid', authTime: 1, authenticationMethods: ['pwd'] };

describe('decidePoll (RFC 8628 §3.5)', () => {
  it('is authorization_pending while the user has not answered', () => {
    expect(decidePoll(pending, now)).toMatchObject({ kind: 'refuse', error: 'authorization_pending' });
    expect(decidePoll({ ...pending, lastPolledAt: seconds(-5) }, now)).toMatchObject({ kind: 'refuse', error: 'authorization_pending' });
  });

  it('is slow_down, with an interval 5 s longer, for a poll sooner than the interval', () => {
    expect(decidePoll({ ...pending, lastPolledAt: seconds(-4) }, now)).toEqual({ kind: 'slow_down', intervalSeconds: 10 });
    expect(decidePoll({ ...pending, intervalSeconds: 10, lastPolledAt: seconds(-9) }, now)).toEqual({ kind: 'slow_down', intervalSeconds: 15 });
    expect(decidePoll({ ...pending, intervalSeconds: 60, lastPolledAt: seconds(-1) }, now)).toEqual({ kind: 'slow_down', intervalSeconds: 60 });
  });

  it('is access_denied after a deny, and issues after an approval', () => {
    expect(decidePoll({ ...pending, status: 'denied', lastPolledAt: seconds(-1) }, now)).toMatchObject({ kind: 'refuse', error: 'access_denied' });
    expect(decidePoll({ ...pending, status: 'approved', approval, lastPolledAt: seconds(-1) }, now)).toEqual({ kind: 'issue' });
  });

  it('is expired_token once expired, whatever the answer', () => {
    for (const status of ['pending', 'approved', 'denied'] as const) {
      expect(decidePoll({ ...pending, status, expiresAt: now }, now)).toMatchObject({ kind: 'refuse', error: 'expired_token' });
    }
  });

  it('is invalid_grant for a code used already, expired or not', () => {
    expect(decidePoll({ ...pending, status: 'redeemed', approval }, now)).toMatchObject({ kind: 'refuse', error: 'invalid_grant' });
    expect(decidePoll({ ...pending, status: 'redeemed', approval, expiresAt: seconds(-1) }, now)).toMatchObject({ kind: 'refuse', error: 'invalid_grant' });
  });
});

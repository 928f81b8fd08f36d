import { deliveryUrlProblem } from './delivery-url';

describe('deliveryUrlProblem', () => {
  it.each([
    ['http://10.0.0.1/events', true, 'must be https'],
    ['http://127.0.0.1:5174/backchannel-logout', false, 'may be http only while the issuer is http'],
    ['https://user:pw@rp.example/logout', true, 'must not carry user information'],
    ['https://rp.example/logout#fragment', true, 'must not have a fragment'],
    ['ftp://rp.example/logout', true, 'must be https'],
    ['rp.example/logout', true, 'must be an absolute URL'],
    [`https://rp.example/${'x'.repeat(2000)}`, true, 'must be at most 2000 characters'],
  ])('refuses %s (loopback http allowed: %s)', (url, allowLoopbackHttp, problem) => {
    expect(deliveryUrlProblem(url, allowLoopbackHttp)).toContain(problem);
  });

  it.each([
    ['https://rp.example/backchannel-logout', false],
    ['http://127.0.0.1:5174/backchannel-logout', true],
    ['http://localhost:8080/events', true],
    ['http://[::1]:8080/events', true],
  ])('accepts %s (loopback http allowed: %s)', (url, allowLoopbackHttp) => {
    expect(deliveryUrlProblem(url, allowLoopbackHttp)).toBeUndefined();
  });
});

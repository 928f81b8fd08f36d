import { accessTokenHash } from './at-hash';

describe('accessTokenHash', () => {
  it('is the left half of SHA-256 for RS256 (OpenID Connect Core §A.3 example)', () => {
    expect(accessTokenHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', 'RS256')).toBe('77QmUPtjPfzWtF2AnpK9RQ');
  });

  it('is the left half of SHA-512 for EdDSA', () => {
    expect(accessTokenHash('token', 'EdDSA')).toHaveLength(43);
    expect(accessTokenHash('token', 'EdDSA')).not.toBe(accessTokenHash('token', 'RS256'));
  });
});

import { relyingPartyOf } from './relying-party';

describe('relyingPartyOf', () => {
  it('offers no passkeys where browsers refuse WebAuthn: plain http off localhost, and IP addresses', () => {
    expect(relyingPartyOf('http://127.0.0.1:5000').available).toBe(false);
    expect(relyingPartyOf('http://[::1]:5000').available).toBe(false);
    expect(relyingPartyOf('https://10.0.0.1').available).toBe(false);
    expect(relyingPartyOf('http://tollgate.test').available).toBe(false);
  });

  it('is the issuer host, without port or path, on https and http://localhost', () => {
    expect(relyingPartyOf('http://localhost:5000')).toEqual({ id: 'localhost', origin: 'http://localhost:5000', available: true });
    expect(relyingPartyOf('https://id.example.com/tenant')).toEqual({ id: 'id.example.com', origin: 'https://id.example.com', available: true });
    expect(relyingPartyOf('http://app.localhost:8080').available).toBe(true);
  });
});

import { isLoopback, jwksUriProblem } from './jwks-uri';

describe('jwksUriProblem', () => {
  it('refuses http to a non-loopback host', () => {
    expect(jwksUriProblem('http://keys.example.com/jwks')).toBe('the jwks_uri must be https (http only for a loopback address)');
    expect(jwksUriProblem('http://127.example.com/jwks')).toBeDefined();
  });

  it('refuses other schemes, relative URLs, credentials and fragments', () => {
    expect(jwksUriProblem('file:///etc/passwd')).toBeDefined();
    expect(jwksUriProblem('/jwks')).toBe('the jwks_uri is not an absolute URL');
    expect(jwksUriProblem('https://user:pw@keys.example.com/jwks')).toBe('the jwks_uri must not carry credentials');
    expect(jwksUriProblem('https://keys.example.com/jwks#x')).toBe('the jwks_uri must not have a fragment');
    expect(jwksUriProblem(`https://keys.example.com/${'a'.repeat(2000)}`)).toBe('the jwks_uri is too long');
  });

  it('accepts https anywhere and http to loopback addresses', () => {
    expect(jwksUriProblem('https://keys.example.com/.well-known/jwks.json')).toBeUndefined();
    expect(jwksUriProblem('http://127.0.0.1:8080/jwks')).toBeUndefined();
    expect(jwksUriProblem('http://localhost/jwks')).toBeUndefined();
    expect(jwksUriProblem('http://[::1]:9000/bundle')).toBeUndefined();
  });
});

describe('isLoopback', () => {
  it('knows 127.0.0.0/8, ::1 and localhost only', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].map(isLoopback)).toEqual([true, true, true, true, true]);
    expect(['10.0.0.1', '0.0.0.0', 'localhost.example.com', '::ffff:7f00:1'].map(isLoopback)).toEqual([false, false, false, false]);
  });
});

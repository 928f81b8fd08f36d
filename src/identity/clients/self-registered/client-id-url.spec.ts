import { clientIdUrlProblem, isClientIdUrl } from './client-id-url';

describe('isClientIdUrl', () => {
  it('tells URL client_ids from registered ones', () => {
    expect(['https://app.example/client.json', 'http://127.0.0.1:5/x', 'HTTPS://x/y'].every(isClientIdUrl)).toBe(true);
    expect(['spa', 'webapp', 'urn:x:y', 'https:x'].some(isClientIdUrl)).toBe(false);
  });
});

describe('clientIdUrlProblem', () => {
  it.each([
    ['http://app.example/client.json', false, 'https'],
    ['http://app.example/client.json', true, 'https'],
    ['https://app.example', false, 'path'],
    ['https://app.example/', false, 'path'],
    ['https://app.example/client.json#x', false, 'fragment'],
    ['https://app.example/client.json#', false, 'fragment'],
    ['https://user@app.example/client.json', false, 'user information'],
    ['https://user:pw@app.example/client.json', false, 'user information'],
    ['https://app.example/a/../client.json', false, '. or ..'],
    ['https://app.example/a/./client.json', false, '. or ..'],
    ['https://app.example/a/%2e%2E/client.json', false, '. or ..'],
    ['https://APP.example/client.json', false, 'canonical'],
    ['https://app.example:443/client.json', false, 'canonical'],
    ['https://app.example/' + 'a'.repeat(200), false, 'at most'],
    ['https://', false, 'not a URL'],
    ['ftp://app.example/client.json', false, 'https'],
  ])('refuses %s (allowLoopbackHttp %s): %s', (url, loopback, problem) => {
    expect(clientIdUrlProblem(url, loopback)).toContain(problem);
  });

  it('accepts an https URL with a path, a port and a query', () => {
    expect(clientIdUrlProblem('https://app.example/client.json', false)).toBeUndefined();
    expect(clientIdUrlProblem('https://app.example:8443/oauth/client?v=2', false)).toBeUndefined();
  });

  it('accepts http on a loopback host only while the issuer is http', () => {
    expect(clientIdUrlProblem('http://127.0.0.1:4000/client.json', true)).toBeUndefined();
    expect(clientIdUrlProblem('http://localhost:4000/client.json', true)).toBeUndefined();
    expect(clientIdUrlProblem('http://[::1]:4000/client.json', true)).toBeUndefined();
    expect(clientIdUrlProblem('http://127.0.0.1:4000/client.json', false)).toContain('https');
    expect(clientIdUrlProblem('http://10.0.0.1/client.json', true)).toContain('https');
  });
});

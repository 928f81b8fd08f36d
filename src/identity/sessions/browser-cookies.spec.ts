import { generateHandle } from '../../protocol/opaque-handle';
import { BrowserCookies } from './browser-cookies';

const http = new BrowserCookies({ issuer: 'http://localhost:5000' });
const https = new BrowserCookies({ issuer: 'https://id.example.com' });
const handle = generateHandle();

describe('BrowserCookies', () => {
  it('reads nothing from a missing header, a missing cookie, or a value that is not a handle', () => {
    expect(http.session(undefined)).toBeUndefined();
    expect(http.session('other=1')).toBeUndefined();
    expect(http.session('tollgate.session=short')).toBeUndefined();
    expect(https.session(`tollgate.session=${handle}`)).toBeUndefined();
  });

  it("finds its cookie in a header of any size, after other applications' cookies", () => {
    const header = `big=${'x'.repeat(12 * 1024)}; tollgate.presession=${handle}; tollgate.session=${handle}`;
    expect(http.preSession(header)).toBe(handle);
    expect(http.session(header)).toBe(handle);
  });

  it('names the cookies __Host- and makes them Secure only when the issuer is https', () => {
    expect(http.setSession(handle, 600)).toBe(`tollgate.session=${handle}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax`);
    expect(https.setPreSession(handle)).toBe(`__Host-tollgate.presession=${handle}; Path=/; HttpOnly; Secure; SameSite=Lax`);
    expect(https.session(`__Host-tollgate.session=${handle}`)).toBe(handle);
  });

  it('clears a cookie under the name it was set with', () => {
    expect(https.clearSession()).toMatch(
      /^__Host-tollgate\.session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(http.clearPreSession()).toMatch(/^tollgate\.presession=; Max-Age=0;/);
  });
});

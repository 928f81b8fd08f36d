import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { hashRefreshTokenHandle } from '../../src/tokens/refresh-tokens/refresh-token';
import { Browser } from '../support/browser';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm } from '../support/http';

/** A client's DPoP key pair and its RFC 7638 thumbprint (the `jkt`). */
async function dpopKey(): Promise<{ pair: oidc.CryptoKeyPair; jkt: string }> {
  const pair = await generateKeyPair('ES256', { extractable: true });
  return { pair, jkt: await calculateJwkThumbprint(await exportJWK(pair.publicKey), 'sha256') };
}

interface StoredRefreshToken {
  dpop_jkt: string | null;
  consumed_at: Date | null;
  revoked_at: Date | null;
}

/**
 * RFC 9449 §5 (docs/dpop.md#the-token-endpoint): the refresh token of a public client — the demo TV,
 * through the device authorization grant — is bound to the DPoP key it was issued for.
 */
describe('DPoP-bound refresh tokens of a public client', () => {
  let server: TestServer;
  let config: oidc.Configuration;
  beforeAll(async () => {
    server = await startTestServer();
    const toServer: oidc.CustomFetch = (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit);
    config = await oidc.discovery(new URL(ISSUER), 'tv', undefined, oidc.None(), { [oidc.customFetch]: toServer, execute: [oidc.allowInsecureRequests] });
  });
  afterAll(() => server.close());

  const stored = async (refreshToken: string) =>
    (
      await sql<StoredRefreshToken>('SELECT dpop_jkt, consumed_at, revoked_at FROM refresh_tokens WHERE token_hash = $1', [
        hashRefreshTokenHandle(refreshToken),
      ])
    )[0];

  /** Approves a device authorization on the verification page as a new user, as the device-authorization spec does. */
  async function approve(userCode: string): Promise<string> {
    const username = uniqueName('dpop-viewer');
    const subject = await insertUser({ username, password: 'pw' });
    const browser = new Browser();
    const login = await (await browser.get(`${server.url}/connect/device?user_code=${encodeURIComponent(userCode)}`)).text();
    const entry = await (await browser.submit(server.url, login, { username, password: 'pw' })).text();
    const consent = await (await browser.submit(server.url, entry, { user_code: userCode })).text();
    expect(consent).toContain('name="decision"');
    expect(await (await browser.submit(server.url, consent, { decision: 'allow' })).text()).toContain('Device connected');
    return subject;
  }

  it('binds the tokens to the proof key, refreshes only with that key, and refused refreshes leave the token usable', async () => {
    const key = await dpopKey();
    const dpop = oidc.getDPoPHandle(config, key.pair);
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid api1 offline_access' });
    const subject = await approve(device.user_code);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, device, undefined, { DPoP: dpop });
    expect(tokens.token_type).toBe('dpop');
    expect(jwtPayload(tokens.access_token)).toMatchObject({ sub: subject, client_id: 'tv', cnf: { jkt: key.jkt } });
    const refreshToken = tokens.refresh_token!;
    expect(refreshToken).toEqual(expect.any(String));
    expect(await stored(refreshToken)).toEqual({ dpop_jkt: key.jkt, consumed_at: null, revoked_at: null });

    // Another key: openid-client sends a valid proof of it, which the bound token refuses.
    const other = await dpopKey();
    const refused = oidc.refreshTokenGrant(config, refreshToken, undefined, { DPoP: oidc.getDPoPHandle(config, other.pair) });
    await expect(refused).rejects.toMatchObject({ name: 'ResponseBodyError', status: 400, error: 'invalid_dpop_proof' });
    // No proof at all: a plain form-encoded refresh.
    const refresh = (token: string) => postForm(`${server.url}/connect/token`, { grant_type: 'refresh_token', refresh_token: token, client_id: 'tv' });
    expectTokenError(await refresh(refreshToken), 400, 'invalid_dpop_proof');
    // Refused before rotation: neither consumed nor revoked, so the holder of the key is not locked out.
    expect(await stored(refreshToken)).toEqual({ dpop_jkt: key.jkt, consumed_at: null, revoked_at: null });

    const refreshed = await oidc.refreshTokenGrant(config, refreshToken, undefined, { DPoP: dpop });
    expect(refreshed.token_type).toBe('dpop');
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(jwtPayload(refreshed.access_token)).toMatchObject({ sub: subject, client_id: 'tv', cnf: { jkt: key.jkt } });
    expect((await stored(refreshToken)).consumed_at).toBeInstanceOf(Date);

    // The successor is bound to the same key.
    const successor = refreshed.refresh_token!;
    expect(successor).not.toBe(refreshToken);
    expect(await stored(successor)).toEqual({ dpop_jkt: key.jkt, consumed_at: null, revoked_at: null });
    expectTokenError(await refresh(successor), 400, 'invalid_dpop_proof');
    const again = await oidc.refreshTokenGrant(config, successor, undefined, { DPoP: dpop });
    expect(jwtPayload(again.access_token).cnf).toEqual({ jkt: key.jkt });
  }, 30_000);
});

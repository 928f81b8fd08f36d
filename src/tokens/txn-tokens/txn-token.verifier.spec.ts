import { UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransactionTokenGuard } from './txn-token.guard';
import { createTransactionTokenVerifier, TransactionTokenError } from './txn-token.verifier';

const ISSUER = 'https://tollgate.example';
const TRUST_DOMAIN = 'https://mesh.example';
// ES256 signatures are 86 characters: the last (A, Q, g or w) has 4 spare bits, which decoders ignore.
const respelled = (jws: string) => jws.slice(0, -1) + String.fromCharCode(jws.charCodeAt(jws.length - 1) + 1);

describe('createTransactionTokenVerifier', () => {
  let server: Server;
  let jwksUri: string;
  let sign: (claims?: Record<string, unknown>, header?: Record<string, unknown>) => Promise<string>;
  let otherKeySign: () => Promise<string>;
  let fetches = 0;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const other = await generateKeyPair('ES256');
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server = createServer((_, response) => {
      fetches++;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: ISSUER,
      aud: TRUST_DOMAIN,
      iat: now,
      exp: now + 60,
      txn: 't-1',
      sub: '1',
      scope: 'api1',
      req_wl: 'gateway',
      tctx: {},
      rctx: { req_ip: '10.0.0.1' },
    };
    sign = (overrides = {}, header = {}) =>
      new SignJWT({ ...claims, ...overrides }).setProtectedHeader({ alg: 'ES256', typ: 'txntoken+jwt', kid: 'k1', ...header }).sign(privateKey);
    otherKeySign = () => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'txntoken+jwt', kid: 'k1' }).sign(other.privateKey);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const verifier = () => createTransactionTokenVerifier({ issuer: ISSUER, trustDomain: TRUST_DOMAIN, jwksUri });

  it.each([
    ['an access token (typ at+jwt)', () => sign({}, { typ: 'at+jwt' })],
    ['another trust domain', () => sign({ aud: 'https://other.example' })],
    ['another issuer', () => sign({ iss: 'https://evil.example' })],
    ['an expired token', () => sign({ exp: Math.floor(Date.now() / 1000) - 120 })],
    ['no txn', () => sign({ txn: undefined })],
    ['a non-object rctx', () => sign({ rctx: 'x' })],
    ['another key', () => otherKeySign()],
    ['garbage', async () => 'not.a.jwt'],
    ['the signature respelled in its spare bits (RFC 7515 §2)', async () => respelled(await sign())],
  ])('refuses %s', async (_, token) => {
    await expect(verifier()(await token())).rejects.toBeInstanceOf(TransactionTokenError);
  });

  it('returns the claims of a valid token, fetching the JWK Set once', async () => {
    const verify = verifier();
    const before = fetches;
    const claims = await verify(await sign());
    await verify(await sign());
    expect(claims).toMatchObject({ txn: 't-1', sub: '1', scope: 'api1', req_wl: 'gateway', rctx: { req_ip: '10.0.0.1' } });
    expect(fetches - before).toBe(1);
  });

  describe('TransactionTokenGuard', () => {
    const contextFor = (headers: Record<string, string | string[]>) => {
      const request: { headers: typeof headers; transactionToken?: unknown } = { headers };
      const context = { switchToHttp: () => ({ getRequest: () => request }) } as Pick<ExecutionContext, 'switchToHttp'> as ExecutionContext;
      return { request, context };
    };

    it.each([
      ['no Txn-Token header', {}],
      ['two Txn-Token headers', { 'txn-token': ['a', 'b'] }],
      ['an invalid token', { 'txn-token': 'not.a.jwt' }],
    ])('answers 401 invalid_token for %s', async (_, headers) => {
      const { context } = contextFor(headers);
      const refusal = new TransactionTokenGuard({ issuer: ISSUER, trustDomain: TRUST_DOMAIN, jwksUri }).canActivate(context);
      await expect(refusal).rejects.toBeInstanceOf(UnauthorizedException);
      await expect(refusal).rejects.toMatchObject({ response: { error: 'invalid_token' } });
    });

    it('admits a request with a valid Txn-Token and attaches its claims', async () => {
      const { request, context } = contextFor({ 'txn-token': await sign() });
      await expect(new TransactionTokenGuard({ issuer: ISSUER, trustDomain: TRUST_DOMAIN, jwksUri }).canActivate(context)).resolves.toBe(true);
      expect(request.transactionToken).toMatchObject({ txn: 't-1', sub: '1' });
    });
  });
});

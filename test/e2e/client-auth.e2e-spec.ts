import { startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { basic, postForm } from '../support/http';

/** docs/client-authentication.md: client_secret_basic (RFC 6749 §2.3.1) and client_secret_post, one at a time. */
describe('client authentication at POST /connect/token', () => {
  let server: TestServer;
  let tokenUrl: string;
  const grant = { grant_type: 'client_credentials', scope: 'api1' };
  const rawBasic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

  beforeAll(async () => {
    server = await startTestServer();
    tokenUrl = `${server.url}/connect/token`;
  });
  afterAll(() => server.close());

  describe('client_secret_basic with characters RFC 6749 §2.3.1 form-urlencodes', () => {
    // ':' separates id and secret in Basic, '+' means space in form encoding, '%' starts an escape.
    const clientId = `${uniqueName('svc')}:a+b c%41/é`;
    const secret = 'p:ss+w rd%2B/=ü&?';
    beforeAll(() => insertClient({ clientId, secrets: [{ secret }], grantTypes: ['client_credentials'], scopes: ['api1'] }));

    it('authenticates with the id and secret form-urlencoded before base64', async () => {
      const response = await postForm(tokenUrl, grant, { authorization: basic(clientId, secret) });
      expect(response.status).toBe(200);
      expect(response.body.scope).toBe('api1');
    });

    it('refuses the same id and secret sent without form-urlencoding', async () => {
      const response = await postForm(tokenUrl, grant, { authorization: rawBasic(`${clientId}:${secret}`) });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it('decodes a space sent as %20 as well as "+"', async () => {
      const response = await postForm(tokenUrl, grant, { authorization: rawBasic(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`) });
      expect(response.status).toBe(200);
    });

    it('decodes "+" as a space, so a secret whose space is sent as a literal "+" is wrong', async () => {
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+').replace(/%2B/g, '+');
      const response = await postForm(tokenUrl, grant, { authorization: rawBasic(`${encodeURIComponent(clientId)}:${encode(secret)}`) });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it('authenticates with client_secret_post too', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: clientId, client_secret: secret });
      expect(response.status).toBe(200);
    });
  });

  describe('client_secret_post', () => {
    it('authenticates a demo client by client_id and client_secret in the body', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: 'm2m', client_secret: 'm2m-secret' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' });
    });

    it('refuses a wrong secret without a Basic challenge', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: 'm2m', client_secret: 'm2m-secret ' });
      expectTokenError(response, 401, 'invalid_client');
    });

    it('refuses client_secret sent twice', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: 'm2m', client_secret: ['m2m-secret', 'm2m-secret'] });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('treats client_id as case-sensitive', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: 'M2M', client_secret: 'm2m-secret' });
      expectTokenError(response, 401, 'invalid_client');
    });
  });

  describe('both methods at once', () => {
    it('refuses Basic together with client_id and client_secret in the body', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: 'm2m', client_secret: 'm2m-secret' }, { authorization: basic('m2m', 'm2m-secret') });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses Basic together with a client_secret in the body, even a wrong one', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_secret: 'other' }, { authorization: basic('m2m', 'm2m-secret') });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses Basic with a body client_id naming another client', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_id: 'frontend' }, { authorization: basic('m2m', 'm2m-secret') });
      expectTokenError(response, 400, 'invalid_request');
    });
  });

  describe('a client with two secrets', () => {
    const clientId = uniqueName('rotating');
    beforeAll(() =>
      insertClient({ clientId, secrets: [{ secret: 'old-secret' }, { secret: 'new-secret' }], grantTypes: ['client_credentials'], scopes: ['api1'] }),
    );

    it.each(['old-secret', 'new-secret'])('authenticates with %s', async (secret) => {
      const response = await postForm(tokenUrl, grant, { authorization: basic(clientId, secret) });
      expect(response.status).toBe(200);
    });

    it('refuses any other secret', async () => {
      const response = await postForm(tokenUrl, grant, { authorization: basic(clientId, 'newer-secret') });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });
  });

  describe('malformed Basic header', () => {
    it.each([
      ['no credentials after the scheme', 'Basic'],
      ['only spaces after the scheme', 'Basic    '],
      ['characters outside base64', 'Basic !!!not-base64!!!'],
      ['no colon in the decoded text', rawBasic('m2m')],
      ['an empty client id', rawBasic(':m2m-secret')],
      ['a broken percent escape', rawBasic('m2m:%ZZ')],
      ['more than 4 KiB of credentials', rawBasic(`m2m:${'x'.repeat(5000)}`)],
    ])('refuses %s with invalid_client and a Basic challenge', async (_, authorization) => {
      const response = await postForm(tokenUrl, grant, { authorization });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it('reads the scheme name case-insensitively (RFC 7235 §2.1)', async () => {
      const response = await postForm(tokenUrl, grant, { authorization: basic('m2m', 'm2m-secret').replace('Basic', 'bAsIc') });
      expect(response.status).toBe(200);
    });
  });

  describe('refusals that reveal nothing', () => {
    it('describes an unknown client and a wrong secret the same way', async () => {
      const unknown = await postForm(tokenUrl, grant, { authorization: basic(uniqueName('nobody'), 'm2m-secret') });
      const wrongSecret = await postForm(tokenUrl, grant, { authorization: basic('m2m', 'wrong') });
      expectTokenError(unknown, 401, 'invalid_client', { basicChallenge: true });
      expect(unknown.body).toEqual(wrongSecret.body);
    });
  });
});

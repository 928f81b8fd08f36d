import { readClientCredentials } from './client-credentials.reader';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const invalidRequest = (description: string) => expect.objectContaining({ code: 'invalid_request', status: 400, description });

describe('readClientCredentials', () => {
  it('refuses Basic together with a posted client_secret', () => {
    expect(() => readClientCredentials(basic('api1', 's'), { client_id: 'api1', client_secret: 's' })).toThrow(
      invalidRequest('more than one client authentication method was used'),
    );
  });

  it('refuses Basic with a posted client_id naming another client', () => {
    expect(() => readClientCredentials(basic('api1', 's'), { client_id: 'm2m' })).toThrow(invalidRequest('client_id does not match the Authorization header'));
  });

  it('refuses a repeated client_id', () => {
    expect(() => readClientCredentials(undefined, { client_id: ['a', 'b'], client_secret: 's' })).toThrow(
      invalidRequest('parameter client_id must not be repeated'),
    );
  });

  it('returns undefined when no credentials were sent', () => {
    expect(readClientCredentials(undefined, { grant_type: 'client_credentials' })).toBeUndefined();
  });

  it('returns undefined for a posted client_id without secret, or an empty client_id', () => {
    expect(readClientCredentials(undefined, { client_id: 'api1' })).toBeUndefined();
    expect(readClientCredentials(undefined, { client_id: '', client_secret: 's' })).toBeUndefined();
  });

  it('reads client_secret_basic', () => {
    expect(readClientCredentials(basic('api1', 'api1-secret'), {})).toEqual({
      clientId: 'api1',
      clientSecret: 'api1-secret',
      method: 'client_secret_basic',
    });
  });

  it('reads client_secret_basic with a posted client_id naming the same client', () => {
    expect(readClientCredentials(basic('api1', 'x'), { client_id: 'api1' })?.method).toBe('client_secret_basic');
  });

  it('reads client_secret_post', () => {
    expect(readClientCredentials(undefined, { client_id: 'm2m', client_secret: 'm2m-secret' })).toEqual({
      clientId: 'm2m',
      clientSecret: 'm2m-secret',
      method: 'client_secret_post',
    });
  });

  it('reads client_secret_post when the Authorization header uses another scheme', () => {
    expect(readClientCredentials('Bearer abc', { client_id: 'm2m', client_secret: 's' })?.method).toBe('client_secret_post');
  });
});

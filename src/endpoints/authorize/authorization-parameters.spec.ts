import { inspectParameters } from '../../protocol/inspected-parameters';
import { AuthorizationParameters } from './authorization-parameters';
import { AUTHORIZATION_PARAMETERS } from './authorization-request';

const refusal = (description: string) => expect.objectContaining({ code: 'invalid_request', description });

describe('AuthorizationParameters', () => {
  it.each(AUTHORIZATION_PARAMETERS.filter((name) => name !== 'resource'))('refuses %s repeated or over 2048 characters', (name) => {
    expect(() => inspectParameters(AuthorizationParameters, { [name]: ['a', 'b'] }).valid(name)).toThrow(refusal(`parameter ${name} must not be repeated`));
    expect(() => inspectParameters(AuthorizationParameters, { [name]: 'x'.repeat(2049) }).valid(name)).toThrow(refusal(`parameter ${name} is too long`));
  });

  it('takes resource (RFC 8707) repeated, at most 16 values of at most 2048 characters', () => {
    const uris = ['https://a.example/', 'https://b.example/'];
    const repeated = inspectParameters(AuthorizationParameters, { resource: uris });
    expect(repeated.repeated).toEqual([]);
    expect(repeated.listed('resource')).toEqual(uris);
    const tooMany = inspectParameters(AuthorizationParameters, { resource: Array.from({ length: 17 }, (_, index) => `https://${index}.example/`) });
    expect(() => tooMany.listed('resource')).toThrow(refusal('parameter resource is too long or repeated too often'));
    const tooLong = inspectParameters(AuthorizationParameters, { resource: ['https://a.example/', 'x'.repeat(2049)] });
    expect(() => tooLong.listed('resource')).toThrow(refusal('parameter resource is too long or repeated too often'));
  });

  it('declares exactly the parameters the endpoint reads and carries', () => {
    const sent = Object.fromEntries(AUTHORIZATION_PARAMETERS.map((name) => [name, 'x'.repeat(2048)]));
    const parameters = inspectParameters(AuthorizationParameters, { ...sent, other: 'dropped' });
    expect({ ...parameters.sent }).toEqual(sent);
    expect(AUTHORIZATION_PARAMETERS.map((name) => parameters.valid(name))).toEqual(AUTHORIZATION_PARAMETERS.map(() => 'x'.repeat(2048)));
  });
});

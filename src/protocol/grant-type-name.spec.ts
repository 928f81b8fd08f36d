import { grantTypeNameProblem } from './grant-type-name';

describe('grantTypeNameProblem', () => {
  it.each([
    ['authorization_code'],
    ['client_credentials'],
    ['password'],
    ['refresh_token'],
    ['delegation'],
    ['partner.api-key_v2'],
    ['urn:ietf:params:oauth:grant-type:token-exchange'],
    ['urn:ietf:params:oauth:grant-type:device_code'],
    ['urn:example:params:oauth:grant-type:partner-api-key'],
    ['https://grants.example.com/partner-key'],
    ['x'.repeat(255)],
  ])('accepts %s', (name) => {
    expect(grantTypeNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['', 'must not be empty'],
    ['implicit', 'registered by RFC 7591 for a flow without a token request'],
    ['partner key', 'must be an absolute URI or a short name'],
    ['partner/key', 'must be an absolute URI or a short name'],
    ['pärtner', 'must be an absolute URI or a short name'],
    ['delegation\n', 'must be an absolute URI or a short name'],
    [':partner', 'is not an absolute URI'],
    ['1urn:partner', 'is not an absolute URI'],
    ['urn:', 'is not an absolute URI'],
    ['urn:example:partner key', 'is not an absolute URI'],
    ['urn:example:"quoted"', 'is not an absolute URI'],
    ['x'.repeat(256), 'longer than 255 characters'],
  ])('refuses %j', (name, problem) => {
    expect(grantTypeNameProblem(name)).toContain(problem);
  });

  it('shows a long name shortened, never the whole input', () => {
    const problem = grantTypeNameProblem(`urn:${' '.repeat(300)}`);
    expect(problem!.length).toBeLessThan(200);
  });
});

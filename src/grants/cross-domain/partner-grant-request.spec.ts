import { OAuthError, type PartnerAuthorizationServer } from '../../index';
import { partnerAudience, partnerGrantTarget } from './partner-grant-request';

const PARTNER: PartnerAuthorizationServer = {
  issuer: 'https://as.partner.example',
  resources: ['https://api.partner.example/', 'https://files.partner.example/'],
  clientIds: { webapp: 'webapp-at-partner' },
};

function refusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return error.code;
  }
}

describe('partnerAudience', () => {
  it('is the one audience sent', () => expect(partnerAudience({ audience: ['https://as.partner.example'] })).toBe('https://as.partner.example'));
  it.each([
    [{}, 'invalid_request'],
    [{ audience: [] }, 'invalid_request'],
    [{ audience: ['https://a.example', 'https://b.example'] }, 'invalid_target'],
  ])('refuses %j: %s', (parameters, error) => expect(refusal(() => partnerAudience(parameters))).toBe(error));
});

describe('partnerGrantTarget', () => {
  it("names the client's id at the partner and the requested resources", () => {
    expect(partnerGrantTarget(PARTNER, PARTNER.issuer, 'webapp', { resource: ['https://api.partner.example/', 'https://api.partner.example/'] })).toEqual({
      partner: PARTNER,
      clientId: 'webapp-at-partner',
      resources: ['https://api.partner.example/'],
    });
    expect(partnerGrantTarget(PARTNER, PARTNER.issuer, 'webapp', {}).resources).toEqual([]);
  });

  it.each([
    ['no registered partner', undefined, 'webapp', {}],
    ['a client the partner does not know', PARTNER, 'api2', {}],
    ['a resource the partner does not serve', PARTNER, 'webapp', { resource: ['https://api.other.example/'] }],
  ])('refuses %s: invalid_target', (_name, partner, clientId, parameters) => {
    expect(refusal(() => partnerGrantTarget(partner, 'https://as.partner.example', clientId, parameters))).toBe('invalid_target');
  });
});

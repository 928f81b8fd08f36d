import { readAcrRequirement } from './acr-request';
import { OAuthError } from './oauth-error';

function errorOf(read: () => unknown): OAuthError {
  try {
    read();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('expected an OAuthError');
}

describe('readAcrRequirement', () => {
  it('refuses a claims parameter that is not a JSON object, or whose acr request is malformed', () => {
    for (const claims of ['{', '[]', '"acr"', '{"id_token": 1}', '{"id_token": {"acr": "phr"}}', '{"id_token": {"acr": {"values": [1]}}}']) {
      expect(errorOf(() => readAcrRequirement({ claims })).code).toBe('invalid_request');
    }
  });

  it('cannot meet an essential acr claim that names only values it does not know', () => {
    const claims = JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:example:loa:4'] } } });
    expect(errorOf(() => readAcrRequirement({ claims })).code).toBe('unmet_authentication_requirements');
  });

  it('asks nothing without acr_values, claims or a client setting, and ignores values it does not know', () => {
    expect(readAcrRequirement({})).toBeUndefined();
    expect(readAcrRequirement({ acrValues: 'urn:example:loa:2' })).toBeUndefined();
    expect(readAcrRequirement({ claims: '{"userinfo": {"email": null}}' })).toBeUndefined();
    expect(readAcrRequirement({ claims: JSON.stringify({ id_token: { acr: { values: ['urn:example:silver'] } } }) })).toBeUndefined();
  });

  it('reads acr_values in order, keeping the known ones', () => {
    expect(readAcrRequirement({ acrValues: 'phr' })).toEqual(['phr']);
    expect(readAcrRequirement({ acrValues: 'urn:example:loa:2 phr pwd' })).toEqual(['phr', 'pwd']);
  });

  it('reads an acr claim with value or values, ahead of acr_values', () => {
    expect(readAcrRequirement({ claims: JSON.stringify({ id_token: { acr: { essential: true, value: 'phr' } } }) })).toEqual(['phr']);
    expect(readAcrRequirement({ acrValues: 'pwd', claims: JSON.stringify({ id_token: { acr: { values: ['phr'] } } }) })).toEqual(['phr']);
  });

  it('requires phr of a client registered so, whatever the request asks', () => {
    expect(readAcrRequirement({ clientRequiresPhr: true })).toEqual(['phr']);
    expect(readAcrRequirement({ acrValues: 'pwd', clientRequiresPhr: true })).toEqual(['phr']);
  });
});

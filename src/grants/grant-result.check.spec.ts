import { continueWith } from './grant-continuation';
import { checkErrorAnswer, checkGrantResult, MalformedGrantResult } from './grant-result.check';

const code = { kind: 'code_redemption' as const, code: {} as never };

describe('checkGrantResult', () => {
  it.each([
    ['a number', 42, 'the result is a number, not a success or an error'],
    ['a string', 'token', 'the result is a string, not a success or an error'],
    ['an array', [], 'the result is an array, not a success or an error'],
    ['null', null, 'the result is null, not a success or an error'],
    ['undefined', undefined, 'the result is a undefined, not a success or an error'],
    ['a made-up kind', { kind: 'device_code_redemption', subject: '1' }, 'the result kind device_code_redemption is neither success nor error'],
    ['a subject that is no string', { subject: 1 }, 'subject is not a non-empty string of at most 255 characters'],
    ['an empty subject', { subject: '' }, 'subject is not a non-empty string of at most 255 characters'],
    ['scopes that are no list', { scopes: 'api1' }, 'scopes is not a list of strings'],
    ['an empty amr', { authenticationMethods: [] }, 'authenticationMethods is not a non-empty list of strings'],
    ['claims that are a list', { claims: ['x'] }, 'claims is not an object'],
    ['an empty audience', { audience: [] }, 'audience is not a non-empty list of strings'],
    ['a delegation without actor', { delegation: { expiresAtMost: 1 } }, 'delegation is not a delegation (actor, expiresAtMost)'],
    ['a delegation with a bad act', { delegation: { actor: { client_id: 7 }, expiresAtMost: 1 } }, 'delegation is not a delegation (actor, expiresAtMost)'],
    ['a forged continuation', { subject: '1', continuation: {} }, 'continuation was not handed out by Tollgate'],
    ['an error with an unknown code', { kind: 'error', error: 'nope' }, 'the error code nope is not one of the token endpoint'],
    ['an error code of another endpoint', { kind: 'error', error: 'invalid_token' }, 'the error code invalid_token is not one of the token endpoint'],
    [
      'a long description',
      { kind: 'error', error: 'invalid_grant', description: 'x'.repeat(1001) },
      'the error description is not a string of at most 1000 characters',
    ],
  ])('refuses %s', (_, value, reason) => {
    expect(() => checkGrantResult(value, false)).toThrow(new MalformedGrantResult(reason));
  });

  it('accepts authTime only from a grant that signs a user in', () => {
    expect(() => checkGrantResult({ subject: '1', authTime: 1_900_000_000 }, false)).toThrow(MalformedGrantResult);
    expect(checkGrantResult({ subject: '1', authTime: 1_900_000_000 }, true)).toEqual({ kind: 'success', success: { subject: '1', authTime: 1_900_000_000 } });
  });

  it('reads a success, an error of any token-endpoint RFC, and a genuine continuation', () => {
    expect(checkGrantResult({}, false)).toEqual({ kind: 'success', success: {} });
    for (const error of ['invalid_grant', 'invalid_target', 'authorization_pending', 'slow_down', 'expired_token', 'invalid_dpop_proof', 'use_dpop_nonce']) {
      expect(checkGrantResult({ kind: 'error', error, description: 'd' }, false)).toEqual({ kind: 'error', error: { kind: 'error', error, description: 'd' } });
    }
    const continuation = continueWith(code);
    expect(checkGrantResult({ subject: '1', continuation }, true)).toEqual({ kind: 'continued', success: { subject: '1', continuation }, continued: code });
  });
});

describe('checkErrorAnswer', () => {
  it('accepts a description of exactly 1,000 characters and refuses server-side codes a grant cannot answer itself', () => {
    expect(() => checkErrorAnswer('invalid_request', 'x'.repeat(1000))).not.toThrow();
    expect(() => checkErrorAnswer('login_required', undefined)).toThrow(MalformedGrantResult);
  });
});

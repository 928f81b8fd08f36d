import { inspectParameters } from '../../protocol/inspected-parameters';
import { ConsentForm, LoginForm } from './authorization-forms';

const HANDLE = 'h'.repeat(43);
const refusal = (description: string) => expect.objectContaining({ code: 'invalid_request', description });

describe('LoginForm', () => {
  it('refuses a CSRF token longer than a handle, and repeated credentials', () => {
    const form = inspectParameters(LoginForm, { csrf_token: `${HANDLE}x`, username: ['a', 'b'], password: ['c', 'd'] });
    expect(() => form.valid('csrf_token')).toThrow(refusal('parameter csrf_token is too long'));
    expect(() => form.valid('username')).toThrow(refusal('parameter username must not be repeated'));
    expect(() => form.valid('password')).toThrow(refusal('parameter password must not be repeated'));
  });

  it('carries the authorization request, whose members keep their own bounds', () => {
    const form = inspectParameters(LoginForm, { client_id: 'spa', scope: 's'.repeat(2049) });
    expect(form.valid('client_id')).toBe('spa');
    expect(() => form.valid('scope')).toThrow(refusal('parameter scope is too long'));
  });

  it('reads the token and credentials, long ones left for PasswordSignIn to refuse', () => {
    const form = inspectParameters(LoginForm, { csrf_token: HANDLE, username: 'alice', password: 'p'.repeat(2000) });
    expect([form.valid('csrf_token'), form.valid('username'), form.valid('password')]).toEqual([HANDLE, 'alice', 'p'.repeat(2000)]);
  });
});

describe('ConsentForm', () => {
  it('refuses a repeated or overlong decision', () => {
    expect(() => inspectParameters(ConsentForm, { decision: ['allow', 'deny'] }).valid('decision')).toThrow(refusal('parameter decision must not be repeated'));
    expect(() => inspectParameters(ConsentForm, { decision: 'allowed' }).valid('decision')).toThrow(refusal('parameter decision is too long'));
  });

  it('reads allow and deny', () => {
    expect(['allow', 'deny'].map((decision) => inspectParameters(ConsentForm, { decision }).valid('decision'))).toEqual(['allow', 'deny']);
  });
});

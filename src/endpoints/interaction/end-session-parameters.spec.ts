import { inspectParameters } from '../../protocol/inspected-parameters';
import { EndSessionParameters, LogoutForm } from './end-session-parameters';

const HANDLE = 'h'.repeat(43);
const refusal = (description: string) => expect.objectContaining({ code: 'invalid_request', description });

describe('EndSessionParameters', () => {
  it.each(['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'] as const)('refuses %s repeated or over 16 KiB', (name) => {
    expect(() => inspectParameters(EndSessionParameters, { [name]: ['a', 'b'] }).valid(name)).toThrow(refusal(`parameter ${name} must not be repeated`));
    expect(() => inspectParameters(EndSessionParameters, { [name]: 'x'.repeat(16 * 1024 + 1) }).valid(name)).toThrow(refusal(`parameter ${name} is too long`));
  });

  it('reads each parameter up to 16 KiB', () => {
    const value = 'x'.repeat(16 * 1024);
    expect(inspectParameters(EndSessionParameters, { state: value, client_id: 'spa' }).valid('state')).toBe(value);
  });
});

describe('LogoutForm', () => {
  it('refuses a CSRF token longer than a handle, and carries the logout request', () => {
    const form = inspectParameters(LogoutForm, { csrf_token: `${HANDLE}x`, client_id: 'spa', state: ['1', '2'] });
    expect(() => form.valid('csrf_token')).toThrow(refusal('parameter csrf_token is too long'));
    expect(form.valid('client_id')).toBe('spa');
    expect(() => form.valid('state')).toThrow(refusal('parameter state must not be repeated'));
  });
});

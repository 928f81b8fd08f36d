import { OAuthError } from '../../protocol/oauth-error';
import type { User } from '../../identity/users/user';
import { requireEnabledUser, type SubjectUsers } from './subject-user';

const user = (enabled: boolean): User => ({ subjectId: 'u1', username: 'carol', passwordHash: '', enabled, claims: {}, roles: [] });
const directory = (found?: User): SubjectUsers => ({ findBySubjectId: async () => found });

describe('requireEnabledUser', () => {
  it('refuses an unknown user with the given error code', async () => {
    await expect(requireEnabledUser(directory(undefined), 'u1', 'invalid_grant')).rejects.toEqual(
      new OAuthError('invalid_grant', 'the user is unknown or disabled'),
    );
  });

  it('refuses a disabled user with the given error code', async () => {
    await expect(requireEnabledUser(directory(user(false)), 'u1', 'invalid_request')).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('admits an enabled user', async () => {
    await expect(requireEnabledUser(directory(user(true)), 'u1', 'invalid_grant')).resolves.toBeUndefined();
  });
});

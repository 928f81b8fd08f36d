import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { PasskeyCeremonies } from '../../identity/passkeys/passkey-ceremonies';
import type { ChallengeBinding } from '../../identity/passkeys/webauthn-challenges';
import type { User } from '../../identity/users/user';
import { UserDirectory } from '../../identity/users/user-directory';

/**
 * Sign-ins with a passkey (docs/passkeys.md): the credential the page's script posted, verified
 * against the challenge bound to the browser's cookie, for an enabled user; `SignedInSessions` then
 * starts or renews the session.
 */
@Injectable()
export class PasskeySignIn {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly users: UserDirectory,
    private readonly audit: AuditSink,
  ) {}

  /** The enabled user whose passkey signed this credential; undefined (audited) otherwise. */
  async verify(credential: string | undefined, binding: ChallengeBinding, clientId: string, address: string): Promise<User | undefined> {
    const passkey = credential && this.ceremonies.relyingParty.available ? await this.ceremonies.authenticate(credential, binding) : undefined;
    const user = passkey && (await this.users.findBySubjectId(passkey.subject));
    if (user?.enabled) return user;
    this.audit.emit({ name: 'user.passkey_sign_in_failed', clientId, address });
    return undefined;
  }
}

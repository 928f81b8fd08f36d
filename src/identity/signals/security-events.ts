import type { EndedSignInSession } from '../sessions/sign-in-session';
import type { CredentialChangeType, CredentialType, InitiatingEntity } from './security-event-types';

/** A credential of a user that was added, changed or removed (CAEP 1.0 §3.2). */
export interface CredentialChange {
  readonly credentialType: CredentialType;
  readonly changeType: CredentialChangeType;
  /** Who made the change: the user (account page) or an operator (the users command). */
  readonly initiatingEntity: InitiatingEntity;
}

/**
 * Tells relying parties and APIs that a session ended or a credential changed (docs/signals.md):
 * OpenID Connect Back-Channel Logout 1.0 logout tokens to the clients a session gave ID tokens to,
 * and CAEP 1.0 events to the Shared Signals receivers the user's tokens named. Both are written to the
 * durable outbox and delivered by every instance, never on the caller's request path.
 */
export abstract class SecurityEvents {
  /** A session ended (logout, an operator, a disabled user). */
  abstract sessionEnded(session: EndedSignInSession, initiatingEntity: InitiatingEntity): Promise<void>;

  /** All of a user's sessions were revoked (a disabled user): one CAEP session-revoked, whether or not a browser session remained. */
  abstract sessionsRevoked(subject: string, initiatingEntity: InitiatingEntity): Promise<void>;

  /** A password was set or changed, or a passkey added or removed. */
  abstract credentialChanged(subject: string, change: CredentialChange): Promise<void>;
}

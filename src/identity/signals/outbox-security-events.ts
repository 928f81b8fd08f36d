import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuditSink } from '../../platform/audit/audit-event';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import type { EndedSignInSession } from '../sessions/sign-in-session';
import { CREDENTIAL_CHANGE_EVENT, logoutTokenClaims, SESSION_REVOKED_EVENT, userEventClaims, type InitiatingEntity } from './security-event-types';
import { SecurityEvents, type CredentialChange } from './security-events';
import { SignalOutboxRepository } from './signal-outbox.repository';

/** docs/signals.md#delivery: a logout token is tried for an hour (the contract asks for at least 10 minutes), a SET for a week (paused streams included). */
export const LOGOUT_DELIVERY_SECONDS = 3600;
export const SECURITY_EVENT_DELIVERY_SECONDS = 7 * 86_400;

/** `SecurityEvents` through the outbox: the rows are written before the caller goes on, delivered later by any instance. */
@Injectable()
export class OutboxSecurityEvents extends SecurityEvents {
  constructor(
    @Inject(SignalOutboxRepository) private readonly outbox: Pick<SignalOutboxRepository, 'addLogouts' | 'addUserEvent'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    private readonly audit: AuditSink,
  ) {
    super();
  }

  async sessionEnded(session: EndedSignInSession, initiatingEntity: InitiatingEntity): Promise<void> {
    const logouts =
      session.idTokenClientIds.length === 0
        ? 0
        : await this.outbox.addLogouts(session.idTokenClientIds, logoutTokenClaims(session.subject, session.sessionId), LOGOUT_DELIVERY_SECONDS);
    const events = await this.userEvent(session.subject, SESSION_REVOKED_EVENT, { initiating_entity: initiatingEntity });
    this.audit.emit({ name: 'signal.queued', event: 'session_ended', subject: session.subject, logoutTokens: logouts, securityEvents: events });
  }

  async sessionsRevoked(subject: string, initiatingEntity: InitiatingEntity): Promise<void> {
    const events = await this.userEvent(subject, SESSION_REVOKED_EVENT, { initiating_entity: initiatingEntity });
    this.audit.emit({ name: 'signal.queued', event: 'sessions_revoked', subject, logoutTokens: 0, securityEvents: events });
  }

  async credentialChanged(subject: string, change: CredentialChange): Promise<void> {
    const events = await this.userEvent(subject, CREDENTIAL_CHANGE_EVENT, {
      credential_type: change.credentialType,
      change_type: change.changeType,
      initiating_entity: change.initiatingEntity,
    });
    this.audit.emit({ name: 'signal.queued', event: 'credential_changed', subject, logoutTokens: 0, securityEvents: events });
  }

  private userEvent(subject: string, eventType: string, event: Record<string, unknown>): Promise<number> {
    const txn = randomBytes(12).toString('base64url');
    const claims = userEventClaims(this.config.issuer, subject, txn, eventType, { ...event, event_timestamp: Math.floor(Date.now() / 1000) });
    return this.outbox.addUserEvent(subject, eventType, claims, SECURITY_EVENT_DELIVERY_SECONDS);
  }
}

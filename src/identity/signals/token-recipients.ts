import { Inject, Injectable, Logger } from '@nestjs/common';
import { SeenSet } from '../../platform/cache/seen-set';

/** Which clients a user's tokens named; also the DI token. */
export abstract class SignalRecipientRepository {
  /** Records the pairs; those already recorded are left as they are (`INSERT … ON CONFLICT DO NOTHING`). */
  abstract add(subject: string, clientIds: readonly string[]): Promise<void>;
}

/**
 * The privacy rule of docs/signals.md: a Shared Signals receiver hears only of users whose tokens
 * named it (`client_id`, or `aud`). Recorded as tokens are issued, on the token endpoint's hot path:
 * each (user, client) pair is written once per process (a bounded seen-set before an idempotent
 * insert), so a repeat costs a few Set lookups and no database round trip.
 */
@Injectable()
export class TokenRecipients {
  private readonly logger = new Logger(TokenRecipients.name);
  private readonly seen = new SeenSet(100_000);

  constructor(@Inject(SignalRecipientRepository) private readonly repository: Pick<SignalRecipientRepository, 'add'>) {}

  /**
   * Undefined when every pair was recorded before (no promise, so the caller does not even wait a
   * microtask); else the write, which never fails: a failed write is logged and tried again with the
   * user's next token. Until then the receiver hears nothing of this user, erring on the side of privacy.
   */
  record(subject: string, clientIds: readonly string[]): Promise<void> | undefined {
    let fresh: string[] | undefined;
    for (const clientId of clientIds) {
      if (!this.seen.has(`${subject}\n${clientId}`) && !fresh?.includes(clientId)) (fresh ??= []).push(clientId);
    }
    return fresh === undefined ? undefined : this.add(subject, fresh);
  }

  private async add(subject: string, fresh: readonly string[]): Promise<void> {
    try {
      await this.repository.add(subject, fresh);
      for (const clientId of fresh) this.seen.add(`${subject}\n${clientId}`);
    } catch (error) {
      this.logger.warn(`Recording the recipients of a token failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

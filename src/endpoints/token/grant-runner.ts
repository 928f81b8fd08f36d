import { Inject, Injectable, Logger } from '@nestjs/common';
import { checkErrorAnswer, checkGrantResult, MalformedGrantResult, type CheckedGrantResult } from '../../grants/grant-result.check';
import type { GrantContext, GrantValidator } from '../../grants/grant-validator';
import type { ConfigType } from '../../platform/config/config-slice';
import { grantTimeoutConfig } from '../../platform/config/config.slices';
import { OAuthError } from '../../protocol/oauth-error';

const REPORT_INTERVAL_MS = 60_000;

/** A grant's outcome that issues something. */
export type IssuingOutcome = Exclude<CheckedGrantResult, { kind: 'error' }>;

/**
 * Runs a grant validator so that nothing it does stops the token endpoint
 * (docs/grants.md#what-the-token-endpoint-enforces): its result is checked before anything is
 * issued (a malformed one, an error code the token endpoint cannot answer, a description over
 * 1,000 characters: `500 server_error`, logged with the grant type); whatever it throws that is
 * not an `OAuthError` is a fault (500); not settling within `GRANT_TIMEOUT_SECONDS` is
 * `503 temporarily_unavailable`. An error it answers is thrown as an `OAuthError`. Each grant's
 * failures of one kind are logged at most once a minute, with how many were left out: a frozen
 * database must not turn every token request into a log line.
 */
@Injectable()
export class GrantRunner {
  private readonly logger = new Logger('GrantRunner');
  private readonly timeoutMs: number;
  private readonly reported = new Map<string, { at: number; leftOut: number }>();

  constructor(@Inject(grantTimeoutConfig.KEY) config: ConfigType<typeof grantTimeoutConfig>) {
    this.timeoutMs = config.seconds * 1000;
  }

  async run<P extends object>(validator: GrantValidator<P>, parameters: P, context: GrantContext): Promise<IssuingOutcome> {
    const value = await this.settled(validator, parameters, context);
    let checked: CheckedGrantResult;
    try {
      checked = checkGrantResult(value, validator.signsIn === true);
    } catch (error) {
      throw this.malformed(context.grantType, error);
    }
    if (checked.kind === 'error') throw new OAuthError(checked.error.error, checked.error.description);
    return checked;
  }

  /** The validator's result within the time limit; a refusal it throws is checked like a returned one. */
  private async settled<P extends object>(validator: GrantValidator<P>, parameters: P, context: GrantContext): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const validation = Promise.resolve().then(() => validator.validate(parameters, context));
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.timedOut(context.grantType)), this.timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([validation, timeout]);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      try {
        checkErrorAnswer(error.code, error.description);
      } catch (malformed) {
        if (!['temporarily_unavailable', 'server_error'].includes(error.code)) throw this.malformed(context.grantType, malformed);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      // A validator that settles after the timeout must not leave an unhandled rejection behind.
      validation.catch(() => undefined);
    }
  }

  private timedOut(grantType: string): OAuthError {
    this.report(grantType, `did not answer within ${this.timeoutMs / 1000} s (GRANT_TIMEOUT_SECONDS)`);
    return new OAuthError('temporarily_unavailable', 'the grant did not answer in time; try again later', {
      retryAfterSeconds: Math.ceil(this.timeoutMs / 1000),
    });
  }

  private malformed(grantType: string, error: unknown): OAuthError {
    if (!(error instanceof MalformedGrantResult)) throw error;
    this.report(grantType, 'answered a malformed result', `: ${error.message}`);
    return new OAuthError('server_error', 'the grant answered a malformed result');
  }

  /** One line per grant and `what` a minute at most (the registered grant types bound the keys). */
  private report(grantType: string, what: string, detail = ''): void {
    const key = `${grantType}\n${what}`;
    const now = Date.now();
    const last = this.reported.get(key);
    if (last && now - last.at < REPORT_INTERVAL_MS) {
      last.leftOut++;
      return;
    }
    this.reported.set(key, { at: now, leftOut: 0 });
    const leftOut = last?.leftOut ? ` (${last.leftOut} more in the minute before, not logged)` : '';
    this.logger.error(`grant ${grantType.slice(0, 200)} ${what}${detail}${leftOut}`);
  }
}

import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DeviceAuthorizationService } from '../../tokens/device-authorization/device-authorization.service';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import { AuthorizationCodeService } from '../../tokens/authorization/authorization-code.service';
import { PushedAuthorizationService } from './pushed-authorization.service';

const PURGE_INTERVAL_MS = 10 * 60_000;

/** Deletes expired sign-in sessions, authorization codes, pushed and device requests periodically, off the request path. */
@Injectable()
export class ExpiredSignInStatePurger implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ExpiredSignInStatePurger.name);
  private readonly purges = new PeriodicTask({
    name: 'Purging expired sessions, codes, pushed and device requests',
    periodMs: PURGE_INTERVAL_MS,
    run: () => this.purge(),
    log: this.logger,
  });

  constructor(
    private readonly sessions: SignInSessionService,
    private readonly codes: AuthorizationCodeService,
    private readonly pushed: PushedAuthorizationService,
    private readonly devices: DeviceAuthorizationService,
  ) {}

  onModuleInit(): void {
    this.purges.start();
  }

  onModuleDestroy(): void {
    this.purges.stop();
  }

  /** Returns how many sessions, codes, pushed and device requests were deleted. */
  async purge(now = new Date()): Promise<{ sessions: number; codes: number; pushedRequests: number; deviceRequests: number }> {
    return {
      sessions: await this.sessions.purge(now),
      codes: await this.codes.purge(now),
      pushedRequests: await this.pushed.purge(now),
      deviceRequests: await this.devices.purge(now),
    };
  }
}

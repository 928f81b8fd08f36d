import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type RateLimitConfig } from '../config/app.config';
import { OAuthError } from '../oauth/oauth-error';
import { RateLimiter } from './rate-limiter';

/**
 * Limits on endpoints that authenticate clients: requests per source address and per client, and
 * a much tighter budget of failed authentications per address and per client id, so that guessing
 * a secret is impractical. Exceeding one is 429 with Retry-After.
 */
@Injectable()
export class ClientAuthThrottle {
  private readonly limits: RateLimitConfig;

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = config.rateLimits;
  }

  /** Before anything else: the address's request budget, and its failed-authentication budget. */
  async admitAddress(address: string): Promise<void> {
    const { windowSeconds, perAddress } = this.limits;
    await this.ensureFailuresBelowLimit(`fail-addr:${address}`);
    if (perAddress > 0) {
      const decision = await this.limiter.hit(`addr:${address}`, perAddress, windowSeconds);
      if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, 'too many requests from this address');
    }
  }

  /** Before checking a client's secret: the failed-authentication budget of that client id. */
  async admitClientId(clientId: string): Promise<void> {
    await this.ensureFailuresBelowLimit(`fail-client:${clientId.slice(0, 200)}`);
  }

  async authenticationFailed(address: string, claimedClientId: string | undefined): Promise<void> {
    if (this.limits.authFailures === 0) return;
    await Promise.all(failureKeys(address, claimedClientId).map((key) => this.limiter.hit(key, this.limits.authFailures, this.limits.windowSeconds)));
  }

  private async ensureFailuresBelowLimit(key: string): Promise<void> {
    if (this.limits.authFailures === 0) return;
    const decision = await this.limiter.check(key, this.limits.authFailures, this.limits.windowSeconds);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, 'too many failed client authentications');
  }

  async authenticated(clientId: string): Promise<void> {
    const { windowSeconds, perClient } = this.limits;
    if (perClient === 0) return;
    const decision = await this.limiter.hit(`client:${clientId}`, perClient, windowSeconds);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, 'too many requests for this client');
  }
}

function failureKeys(address: string, clientId: string | undefined): string[] {
  return clientId === undefined ? [`fail-addr:${address}`] : [`fail-addr:${address}`, `fail-client:${clientId.slice(0, 200)}`];
}

function tooManyRequests(retryAfterSeconds: number, description: string): OAuthError {
  return new OAuthError('temporarily_unavailable', description, { status: 429, retryAfterSeconds });
}

import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { signalsConfig } from '../../platform/config/config.slices';
import { OutboundAddressPolicy } from '../../identity/clients/self-registered/outbound-address.policy';
import { OutboundFetcher } from '../../identity/clients/self-registered/outbound-fetcher';

/**
 * How signals leave the service: the guarded fetcher of client metadata documents (docs/agents.md#ssrf),
 * POSTing: public addresses only (loopback too while the issuer is http), a deadline, no redirects,
 * a bounded answer; it throws `OutboundFetchError`, never takes the process down.
 */
@Injectable()
export class SignalTransport implements OnModuleDestroy {
  readonly allowLoopbackHttp: boolean;
  private readonly fetcher: OutboundFetcher;

  constructor(@Inject(signalsConfig.KEY) config: ConfigType<typeof signalsConfig>) {
    this.allowLoopbackHttp = new URL(config.issuer).protocol === 'http:';
    this.fetcher = new OutboundFetcher(new OutboundAddressPolicy(this.allowLoopbackHttp), { timeoutMs: config.deliveryTimeoutMs, maxBytes: 4096 });
  }

  post(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<{ readonly status: number }> {
    return this.fetcher.post(url, body, headers);
  }

  async onModuleDestroy(): Promise<void> {
    await this.fetcher.close();
  }
}

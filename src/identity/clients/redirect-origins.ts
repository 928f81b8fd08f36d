import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
import { ClientRepository } from './client.repository';

/**
 * The origins of every registered redirect URI: the browser apps that may call the token, userinfo,
 * revocation and discovery endpoints from their own origin (CORS). Read at most every
 * `CACHE_TTL_SECONDS`, so a new client is seen within that time.
 */
@Injectable()
export class RedirectOrigins {
  private origins?: { readonly values: ReadonlySet<string>; readonly readAt: number };
  private loading?: Promise<ReadonlySet<string>>;

  constructor(
    private readonly clients: ClientRepository,
    @Inject(cacheConfig.KEY) private readonly cache: ConfigType<typeof cacheConfig>,
  ) {}

  async has(origin: string): Promise<boolean> {
    return (await this.current()).has(origin);
  }

  private current(): Promise<ReadonlySet<string>> {
    const fresh = this.origins && Date.now() - this.origins.readAt < this.cache.ttlSeconds * 1000;
    if (fresh) return Promise.resolve(this.origins!.values);
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<ReadonlySet<string>> {
    const values = new Set((await this.clients.findAllRedirectUris()).flatMap((uri) => originOf(uri) ?? []));
    this.origins = { values, readAt: Date.now() };
    return values;
  }
}

function originOf(uri: string): string | undefined {
  try {
    const origin = new URL(uri).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

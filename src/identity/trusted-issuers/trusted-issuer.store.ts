import { Inject, Injectable } from '@nestjs/common';
import { CachedLookup } from '../../platform/cache/cached-lookup';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
import type { TrustedIssuer, TrustedIssuerRole } from './trusted-issuer';
import { TrustedIssuerRepository } from './trusted-issuer.repository';

const MAX_ISSUER_LENGTH = 500;

/** Trusted issuers from memory, reloaded like clients (`CACHE_TTL_SECONDS`), so a disabled issuer is seen within seconds. */
@Injectable()
export class TrustedIssuerStore {
  private readonly issuers: CachedLookup<TrustedIssuer>;

  constructor(repository: TrustedIssuerRepository, @Inject(cacheConfig.KEY) cache: ConfigType<typeof cacheConfig>) {
    this.issuers = new CachedLookup((issuer) => repository.findByIssuer(issuer), cache.ttlSeconds);
  }

  /** The enabled issuer of that role, or undefined. */
  async find(issuer: string, role: TrustedIssuerRole): Promise<TrustedIssuer | undefined> {
    if (issuer.length === 0 || issuer.length > MAX_ISSUER_LENGTH) return undefined;
    const found = await this.issuers.get(issuer);
    return found && found.enabled && found.role === role ? found : undefined;
  }
}

import { Injectable } from '@nestjs/common';
import { TollgateMetrics } from '../../platform/metrics/metrics';
import { SigningKeyStore } from '../keys/signing-key.store';
import { AccessTokenValidator } from './access-token.validator';

/** Hands the metrics the token layer's gauges: the signing key's age and the verified-token cache. */
@Injectable()
export class TokenMetricsProbe {
  constructor(metrics: TollgateMetrics, keys: SigningKeyStore, accessTokens: AccessTokenValidator) {
    metrics.observeTokens({
      signingKeyCreatedAt: () => keys.activeSigningKey?.createdAt,
      verifiedTokenCache: () => accessTokens.cacheLookups,
    });
  }
}

import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig } from './app.config';
import type { ConfigType } from './config-slice';
import { ConfigModule } from './config.module';
import {
  CONFIG_SLICES,
  cacheConfig,
  databaseConfig,
  interactionViews,
  issuerConfig,
  jwkSetsConfig,
  keyEncryptionConfig,
  loggingConfig,
  metricsListenerConfig,
  signingKeysConfig,
  throttlingConfig,
  tokenLifetimes,
  trustDomainConfig,
  verifiedTokenCacheConfig,
} from './config.slices';

const config = loadConfig({
  ISSUER: 'https://id.example.com/',
  TRUST_DOMAIN: 'spiffe://example.com',
  ID_TOKEN_LIFETIME_SECONDS: '120',
  CACHE_TTL_SECONDS: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: 'postgresql://tollgate@db.internal:5432/tollgate',
  SIGNING_ALG: 'ES256',
  LOG_LEVEL: 'warn',
  JWKS_REFETCH_SECONDS: '30',
  VERIFIED_TOKEN_CACHE_SIZE: '50',
  REDIS_URL: 'redis://cache.internal:6379',
});

@Injectable()
class LifetimesConsumer {
  constructor(@Inject(tokenLifetimes.KEY) readonly lifetimes: ConfigType<typeof tokenLifetimes>) {}
}

@Module({ providers: [LifetimesConsumer] })
class ConsumerModule {}

describe('configuration slices', () => {
  it('select their part of AppConfig', () => {
    expect(issuerConfig(config)).toEqual({ issuer: 'https://id.example.com' });
    expect(tokenLifetimes(config)).toEqual({ idTokenSeconds: 120, transactionTokenSeconds: 60, signInSessionSeconds: 28_800 });
    expect(trustDomainConfig(config)).toEqual({ trustDomain: 'spiffe://example.com' });
    expect(cacheConfig(config)).toEqual({ ttlSeconds: 0 });
    expect(interactionViews(config)).toEqual({ viewsDir: undefined });
    expect(metricsListenerConfig(config)).toEqual({ host: '127.0.0.1', port: undefined });
    expect(loggingConfig(config)).toEqual({ logLevel: 'warn' });
    expect(databaseConfig(config)).toEqual({
      databaseUrl: 'postgresql://tollgate@db.internal:5432/tollgate',
      databasePoolSize: 10,
      dataDir: './.data',
      seedDemo: false,
    });
    expect(signingKeysConfig(config)).toEqual({ signingAlgorithm: 'ES256', keyRotation: config.keyRotation, cacheTtlSeconds: 0 });
    expect(keyEncryptionConfig(config)).toEqual({
      keyEncryptionKey: undefined,
      previousKeyEncryptionKeys: [],
      databaseUrl: 'postgresql://tollgate@db.internal:5432/tollgate',
      dataDir: './.data',
    });
    expect(throttlingConfig(config)).toBe(config.rateLimits);
    expect(throttlingConfig(config).redisUrl).toBe('redis://cache.internal:6379');
    expect(verifiedTokenCacheConfig(config)).toEqual({ maxEntries: 50, maxAgeSeconds: 300 });
    expect(jwkSetsConfig(config)).toEqual({ jwksRefetchSeconds: 30 });
  });

  it('have distinct keys', () => {
    expect(new Set(CONFIG_SLICES.map((slice) => slice.KEY)).size).toBe(CONFIG_SLICES.length);
  });

  it('are provided by ConfigModule to any module', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config), ConsumerModule] }).compile();
    expect(moduleRef.get(LifetimesConsumer).lifetimes).toEqual(tokenLifetimes(config));
    expect(moduleRef.get(issuerConfig.KEY)).toEqual({ issuer: 'https://id.example.com' });
  });
});

import { Module } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig, throttlingConfig } from '../../platform/config/config.slices';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import { KeyEncryptionModule } from '../../platform/key-encryption/key-encryption.module';
import type { KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { UsersModule } from '../users/users.module';
import { DeviceCookies } from './device-cookie';
import { PasswordCheck } from './password-check';
import { PasswordCheckQueue } from './password-check.queue';

const DEVICE_COOKIE_KEY_PURPOSE = 'device cookie HMAC key v1';

/** Password sign-in for every form that has one: back-off, device cookies, bounded hashing (docs/throttling.md). */
@Module({
  imports: [UsersModule, RateLimitModule, KeyEncryptionModule],
  providers: [
    PasswordCheck,
    {
      provide: PasswordCheckQueue,
      inject: [throttlingConfig.KEY],
      useFactory: (limits: ConfigType<typeof throttlingConfig>) =>
        new PasswordCheckQueue({
          concurrency: limits.passwordCheckConcurrency,
          queueLength: limits.passwordCheckQueueLength,
          queueTimeoutMs: limits.passwordCheckQueueTimeoutMs,
        }),
    },
    {
      provide: DeviceCookies,
      inject: [KEY_ENCRYPTION_KEYRING, throttlingConfig.KEY, issuerConfig.KEY],
      // Derived from the key-encryption key(s) every instance shares: a cookie from one instance holds at all.
      useFactory: (keyring: KeyEncryptionKeyring, limits: ConfigType<typeof throttlingConfig>, issuer: ConfigType<typeof issuerConfig>) =>
        new DeviceCookies(
          [keyring.current, ...keyring.previous].map((key) => key.derive(DEVICE_COOKIE_KEY_PURPOSE)),
          limits.deviceCookieDays * 86_400,
          issuer.issuer.startsWith('https:'),
        ),
    },
  ],
  exports: [PasswordCheck, DeviceCookies],
})
export class SignInModule {}

import { Logger, Module } from '@nestjs/common';
import type { ConfigType } from '../config/config-slice';
import { keyEncryptionConfig } from '../config/config.slices';
import { KEY_ENCRYPTION_KEYRING, resolveKeyEncryptionKeyring } from './key-encryption-key';

/** The key-encryption keyring: seals the signing keys at rest and derives the cookie and CSRF keys (docs/operations.md). */
@Module({
  providers: [
    {
      provide: KEY_ENCRYPTION_KEYRING,
      inject: [keyEncryptionConfig.KEY],
      useFactory: (config: ConfigType<typeof keyEncryptionConfig>) => {
        const logger = new Logger('KeyEncryptionKey');
        return resolveKeyEncryptionKeyring(config, (message) => logger.warn(message));
      },
    },
  ],
  exports: [KEY_ENCRYPTION_KEYRING],
})
export class KeyEncryptionModule {}

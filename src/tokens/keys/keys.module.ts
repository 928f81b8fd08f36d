import { Logger, Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit/audit.module';
import type { ConfigType } from '../../platform/config/config-slice';
import { keyEncryptionConfig } from '../../platform/config/config.slices';
import { KEY_ENCRYPTION_KEYRING, resolveKeyEncryptionKeyring } from './key-encryption-key';
import { TypeOrmSigningKeyRepository } from './persistence/typeorm-signing-key.repository';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeyRotator } from './signing-key.rotator';
import { SigningKeyStore } from './signing-key.store';

@Module({
  imports: [AuditModule],
  providers: [
    { provide: SigningKeyRepository, useClass: TypeOrmSigningKeyRepository },
    {
      provide: KEY_ENCRYPTION_KEYRING,
      inject: [keyEncryptionConfig.KEY],
      useFactory: (config: ConfigType<typeof keyEncryptionConfig>) => {
        const logger = new Logger('KeyEncryptionKey');
        return resolveKeyEncryptionKeyring(config, (message) => logger.warn(message));
      },
    },
    SigningKeyRotator,
    SigningKeyStore,
  ],
  exports: [SigningKeyStore, SigningKeyRotator, KEY_ENCRYPTION_KEYRING],
})
export class KeysModule {}

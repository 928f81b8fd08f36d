import { Logger, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
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
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('KeyEncryptionKey');
        return resolveKeyEncryptionKeyring(config, (message) => logger.warn(message));
      },
    },
    SigningKeyRotator,
    SigningKeyStore,
  ],
  exports: [SigningKeyStore, SigningKeyRotator],
})
export class KeysModule {}

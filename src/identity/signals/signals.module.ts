import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit/audit.module';
import { TypeOrmUnitOfWork, UnitOfWork } from '../../platform/database/unit-of-work';
import { KeyEncryptionModule } from '../../platform/key-encryption/key-encryption.module';
import { SessionsModule } from '../sessions/sessions.module';
import { OutboxSecurityEvents } from './outbox-security-events';
import { SignalOutboxEntity } from './persistence/signal-outbox.entity';
import { SignalRecipientEntity } from './persistence/signal-recipient.entity';
import { SsfStreamEntity } from './persistence/ssf-stream.entity';
import { TypeOrmSignalOutboxRepository } from './persistence/typeorm-signal-outbox.repository';
import { TypeOrmSignalRecipientRepository } from './persistence/typeorm-signal-recipient.repository';
import { TypeOrmSsfStreamRepository } from './persistence/typeorm-ssf-stream.repository';
import { SecurityEvents } from './security-events';
import { SessionTermination } from './session-termination';
import { SignalOutboxRepository } from './signal-outbox.repository';
import { SsfStreamRepository } from './ssf-stream.repository';
import { SignalRecipientRepository, TokenRecipients } from './token-recipients';

/**
 * Signals (docs/signals.md): the `SecurityEvents` port that writes logout tokens and CAEP events to
 * the outbox, the recipients of users' tokens, receivers' streams, and the sessions operators end.
 * Delivery is `SignalDeliveryModule`'s (tokens/signal-delivery), in the service only.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SignalOutboxEntity, SignalRecipientEntity, SsfStreamEntity]), SessionsModule, AuditModule, KeyEncryptionModule],
  providers: [
    { provide: SignalOutboxRepository, useClass: TypeOrmSignalOutboxRepository },
    { provide: SignalRecipientRepository, useClass: TypeOrmSignalRecipientRepository },
    { provide: SsfStreamRepository, useClass: TypeOrmSsfStreamRepository },
    { provide: SecurityEvents, useClass: OutboxSecurityEvents },
    { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
    TokenRecipients,
    SessionTermination,
  ],
  exports: [SecurityEvents, SignalOutboxRepository, SsfStreamRepository, TokenRecipients, SessionTermination],
})
export class SignalsModule {}

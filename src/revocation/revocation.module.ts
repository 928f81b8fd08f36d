import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../access-token/access-token.module';
import { AuditModule } from '../audit/audit.module';
import { ClientAuthModule } from '../client-auth/client-auth.module';
import { ClientsModule } from '../clients/clients.module';
import { RefreshTokensModule } from '../refresh-tokens/refresh-tokens.module';
import { RevocationController } from './revocation.controller';
import { RevocationService } from './revocation.service';

@Module({
  imports: [ClientsModule, ClientAuthModule, AccessTokenModule, RefreshTokensModule, AuditModule],
  controllers: [RevocationController],
  providers: [RevocationService],
})
export class RevocationModule {}

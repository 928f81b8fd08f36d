import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { AuditModule } from '../../platform/audit/audit.module';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import { ClientsModule } from '../../identity/clients/clients.module';
import { RefreshTokensModule } from '../../tokens/refresh-tokens/refresh-tokens.module';
import { RevocationController } from './revocation.controller';
import { RevocationService } from './revocation.service';

@Module({
  imports: [ClientsModule, ClientAuthModule, AccessTokenModule, RefreshTokensModule, AuditModule],
  controllers: [RevocationController],
  providers: [RevocationService],
})
export class RevocationModule {}

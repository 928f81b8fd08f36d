import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { KeysModule } from '../tokens/keys/keys.module';
import { TokenSigner } from './token-signer';

@Module({ imports: [JwtModule.register({}), KeysModule], providers: [TokenSigner], exports: [TokenSigner] })
export class TokenSignerModule {}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Raw, Repository } from 'typeorm';
import { InitialAccessTokenRepository, type InitialAccessTokenInfo } from '../registered-client.repository';
import { RegistrationTokenEntity } from './registration-token.entity';

@Injectable()
export class TypeOrmInitialAccessTokenRepository extends InitialAccessTokenRepository {
  constructor(@InjectRepository(RegistrationTokenEntity) private readonly tokens: Repository<RegistrationTokenEntity>) {
    super();
  }

  async isValid(tokenHash: string): Promise<boolean> {
    // Compared with the database's clock, the one every instance shares.
    return this.tokens.existsBy([
      { tokenHash, expiresAt: IsNull() },
      { tokenHash, expiresAt: Raw((column) => `${column} > now()`) },
    ]);
  }

  async create(tokenHash: string, description: string | undefined, expiresAt: Date | undefined): Promise<InitialAccessTokenInfo> {
    const entity = this.tokens.create({ tokenHash, description: description ?? null, expiresAt: expiresAt ?? null });
    return toInfo(await this.tokens.save(entity));
  }

  async list(): Promise<InitialAccessTokenInfo[]> {
    return (await this.tokens.find({ order: { createdAt: 'ASC' } })).map(toInfo);
  }

  async revoke(id: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    const { affected } = await this.tokens.delete({ id });
    return (affected ?? 0) > 0;
  }
}

function toInfo(entity: RegistrationTokenEntity): InitialAccessTokenInfo {
  return { id: entity.id, description: entity.description, createdAt: entity.createdAt, expiresAt: entity.expiresAt };
}

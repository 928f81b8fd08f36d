import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { User } from '../user';
import { UserRepository } from '../user.repository';
import { UserEntity } from './user.entity';

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {
    super();
  }

  async findByUsername(username: string): Promise<User | undefined> {
    return toUser(await this.users.findOneBy({ username }));
  }

  async findBySubjectId(subjectId: string): Promise<User | undefined> {
    return toUser(await this.users.findOneBy({ subjectId }));
  }
}

function toUser(entity: UserEntity | null): User | undefined {
  if (!entity) return undefined;
  const { subjectId, username, passwordHash, enabled, claims, roles, updatedAt } = entity;
  return { subjectId, username, passwordHash, enabled, claims, roles, updatedAt };
}

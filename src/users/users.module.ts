import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './password.hasher';
import { TypeOrmUserRepository } from './persistence/typeorm-user.repository';
import { UserEntity } from './persistence/user.entity';
import { UserRepository } from './user.repository';
import { UserStore } from './user.store';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  providers: [{ provide: UserRepository, useClass: TypeOrmUserRepository }, { provide: PasswordHasher, useValue: new PasswordHasher() }, UserStore],
  exports: [UserRepository, PasswordHasher, UserStore],
})
export class UsersModule {}

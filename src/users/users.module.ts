import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './password.hasher';
import { TypeOrmUserRepository } from './persistence/typeorm-user.repository';
import { UserEntity } from './persistence/user.entity';
import { UserRepository } from './user.repository';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  providers: [{ provide: UserRepository, useClass: TypeOrmUserRepository }, { provide: PasswordHasher, useValue: new PasswordHasher() }],
  exports: [UserRepository, PasswordHasher],
})
export class UsersModule {}

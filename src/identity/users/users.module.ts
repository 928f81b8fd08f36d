import { Module, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseUserDirectory } from './database-user.directory';
import { PasswordHasher } from './password.hasher';
import { TypeOrmUserRepository } from './persistence/typeorm-user.repository';
import { UserEntity } from './persistence/user.entity';
import { UserDirectory } from './user-directory';
import { USER_DIRECTORY_CLASS } from './user-directory.option';
import { UserRepository } from './user.repository';
import { UserStore } from './user.store';

/** Users: Tollgate's own table, or the embedding application's `UserDirectory` (docs/users.md). */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  providers: [
    { provide: UserRepository, useClass: TypeOrmUserRepository },
    { provide: PasswordHasher, useValue: new PasswordHasher() },
    {
      provide: UserDirectory,
      useFactory: (moduleRef: ModuleRef, directory?: Type<UserDirectory>) => moduleRef.create(directory ?? DatabaseUserDirectory),
      inject: [ModuleRef, { token: USER_DIRECTORY_CLASS, optional: true }],
    },
    UserStore,
  ],
  exports: [UserRepository, PasswordHasher, UserDirectory, UserStore],
})
export class UsersModule {}

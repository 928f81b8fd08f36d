import { Inject, Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pendingMigrations, runMigrationsExclusively } from './migration-runner';

/** This build's migrations on the opened database, for `tollgate migrate` (cli/migrate.cli.ts). */
@Injectable()
export class SchemaMigrations {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  pending(): Promise<string[]> {
    return pendingMigrations(this.dataSource);
  }

  apply(): Promise<string[]> {
    return runMigrationsExclusively(this.dataSource);
  }
}

@Module({ providers: [SchemaMigrations], exports: [SchemaMigrations] })
export class SchemaMigrationsModule {}

import { Module } from '@nestjs/common';
import { DatabaseOutageMonitor } from './database-outage.monitor';
import { DatabasePoolStats } from './database-pool.stats';

/**
 * The database's state as metrics and error rendering see it. The `DataSource` both read comes from
 * TypeORM's core module, which `DatabaseModule.forRoot()` registers once for the whole application.
 */
@Module({ providers: [DatabasePoolStats, DatabaseOutageMonitor], exports: [DatabasePoolStats, DatabaseOutageMonitor] })
export class DatabaseMonitoringModule {}

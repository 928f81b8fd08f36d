import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, type EntityManager } from 'typeorm';

const current = new AsyncLocalStorage<EntityManager>();

/** Runs work whose writes must all happen or none: a session's ending and the signals that tell of it. */
export abstract class UnitOfWork {
  /** `work` in one transaction; a call inside another joins it. A throw rolls everything back. */
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** A database transaction, which the repositories that read their manager through `managerIn` take part in. */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (current.getStore()) return work();
    return this.dataSource.transaction((manager) => current.run(manager, work));
  }
}

/** The manager of the unit of work in progress, or `manager` outside one. */
export function managerIn(manager: EntityManager): EntityManager {
  return current.getStore() ?? manager;
}

import { DbOptions, resolveDbOptions } from './db.options';
import { UnitOfWork, withUnitOfWork } from './unit-of-work.runner';

/**
 * withUnitOfWork bound to one database. Repositories in other libs inject this (DbModule provides
 * it) instead of a DataSource, so none of them can hold a connection open between units.
 */
export class UnitOfWorkFactory {
  /** Absolute path of the database file, the identity heartbeats and health checks compare. */
  readonly databasePath: string;

  constructor(private readonly opts: DbOptions) {
    this.databasePath = resolveDbOptions(opts).databasePath;
  }

  run<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    return withUnitOfWork(this.opts, fn);
  }
}

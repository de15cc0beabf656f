import type * as sqlite3 from 'sqlite3';
import { DataSource } from 'typeorm';
import type { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';
import { sqliteDataSourceOptions } from './data-source.factory';
import { DbOptions, resolveDbOptions } from './db.options';

/**
 * A DataSource that holds entity metadata but never a connection. Building metadata costs about
 * 0.17 ms per entity, and a unit of work opens a connection per unit; rebuilding it for every unit
 * would make the open cost grow with every entity a domain lib adds. Units borrow this metadata and
 * bring their own connection through their own query runner.
 */
export class MetadataHostDataSource extends DataSource {
  async buildMetadataOnly(): Promise<void> {
    await this.buildMetadatas();
    // Query runners refuse to run unless their DataSource is initialized; each unit's runner
    // supplies its own connection, so "initialized" here means "metadata ready".
    Object.assign(this, { isInitialized: true });
    // The driver itself never connects. Anything that reaches past a unit's manager for a connection
    // of its own (dataSource.query, dataSource.manager, a query builder without a runner) would get
    // an undefined handle and fail obscurely, so say what went wrong instead.
    this.driver.createQueryRunner = () => {
      throw new Error(
        'this DataSource has no connection of its own: use the unit of work manager or queryRunner, not manager.connection',
      );
    };
  }

  override async destroy(): Promise<void> {
    // Nothing to close: connections belong to the units.
  }

  get sqliteDriver(): SqliteDriver {
    return this.driver as SqliteDriver;
  }

  /** The counted sqlite3 module TypeORM was given, so units open connections the same way. */
  get sqlite3(): typeof sqlite3 {
    return (this.driver as unknown as { sqlite: typeof sqlite3 }).sqlite;
  }
}

export interface MetadataHost {
  databasePath: string;
  busyTimeoutMs: number;
  dataSource: MetadataHostDataSource;
}

// Keyed by the options object: callers that hold one DbOptions (UnitOfWorkFactory, DbModule) build
// metadata once. WeakMap so a discarded options object takes its metadata with it.
const hosts = new WeakMap<DbOptions, Promise<MetadataHost>>();

export function metadataHostFor(opts: DbOptions): Promise<MetadataHost> {
  let host = hosts.get(opts);
  if (!host) {
    host = buildHost(opts);
    hosts.set(opts, host);
    // A failed build (an invalid entity) must not be cached: the next call reports it afresh.
    host.catch(() => hosts.delete(opts));
  }
  return host;
}

async function buildHost(opts: DbOptions): Promise<MetadataHost> {
  const { databasePath, busyTimeoutMs } = resolveDbOptions(opts);
  const dataSource = new MetadataHostDataSource(sqliteDataSourceOptions(opts));
  await dataSource.buildMetadataOnly();
  return { databasePath, busyTimeoutMs, dataSource };
}

import { DynamicModule, Global, Module } from '@nestjs/common';
import type { DbOptions } from './db.options';
import { UnitOfWorkFactory } from './unit-of-work.factory';

/** Injection token for the DbOptions DbModule was configured with. */
export const DB_OPTIONS = Symbol('DB_OPTIONS');

/**
 * Gives every module the app database as a UnitOfWorkFactory. Global because repositories live in
 * many domain libs and none of them should import the app's wiring to reach it. It provides no
 * DataSource on purpose: nothing in the app keeps a connection open between units.
 */
@Global()
@Module({})
export class DbModule {
  static forRoot(opts: DbOptions): DynamicModule {
    return {
      module: DbModule,
      global: true,
      providers: [
        { provide: DB_OPTIONS, useValue: opts },
        { provide: UnitOfWorkFactory, useValue: new UnitOfWorkFactory(opts) },
      ],
      exports: [DB_OPTIONS, UnitOfWorkFactory],
    };
  }
}

import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DB_OPTIONS, DbModule } from './db.module';
import type { DbOptions } from './db.options';
import { runMigrations } from './migration.runner';
import { openConnectionCount } from './sqlite3.driver';
import { tempDbDir } from './testing';
import { UnitOfWorkFactory } from './unit-of-work.factory';

const tmp = tempDbDir('module');
afterAll(() => tmp.cleanup());

// A repository in some feature module that does not import DbModule itself.
@Injectable()
class SettingsRepository {
  constructor(private readonly units: UnitOfWorkFactory) {}

  maxParallelFamilies(): Promise<number> {
    return this.units.run(async (uow) => {
      const rows: { max_parallel_families: number }[] = await uow.queryRunner.query(
        'SELECT max_parallel_families FROM discovery_runtime_settings WHERE id = 1',
      );
      return rows[0].max_parallel_families;
    });
  }
}

@Module({ providers: [SettingsRepository], exports: [SettingsRepository] })
class FeatureModule {}

describe('DbModule.forRoot', () => {
  it('provides a global UnitOfWorkFactory bound to the configured database', async () => {
    const opts: DbOptions = { databasePath: tmp.file('app'), entities: [] };
    await runMigrations(opts);

    const moduleRef = await Test.createTestingModule({ imports: [DbModule.forRoot(opts), FeatureModule] }).compile();
    try {
      const factory = moduleRef.get(UnitOfWorkFactory);
      expect(factory).toBeInstanceOf(UnitOfWorkFactory);
      expect(factory.databasePath).toBe(opts.databasePath);
      expect(moduleRef.get(DB_OPTIONS)).toBe(opts);
      expect(await moduleRef.get(SettingsRepository).maxParallelFamilies()).toBe(1);
      expect(openConnectionCount()).toBe(0);
    } finally {
      await moduleRef.close();
    }
  });
});

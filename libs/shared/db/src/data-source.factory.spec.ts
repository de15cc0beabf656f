import * as fs from 'fs';
import * as path from 'path';
import { createDataSource } from './data-source.factory';
import { openConnectionCount } from './sqlite3.driver';
import { tempDbDir } from './testing';

const tmp = tempDbDir('data-source');
afterAll(() => tmp.cleanup());

describe('createDataSource', () => {
  it('opens the shared file with WAL, the busy timeout and foreign keys, and never synchronizes', async () => {
    const databasePath = tmp.file('pragmas');
    expect(fs.existsSync(path.dirname(databasePath))).toBe(false);

    const dataSource = createDataSource({ databasePath, entities: [], busyTimeoutMs: 2500 });
    expect(fs.existsSync(path.dirname(databasePath))).toBe(true);
    expect(dataSource.options).toMatchObject({ type: 'sqlite', database: databasePath, synchronize: false, migrationsRun: false, enableWAL: true });

    await dataSource.initialize();
    try {
      expect(openConnectionCount()).toBe(1);
      expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await dataSource.query('PRAGMA busy_timeout')).toEqual([{ timeout: 2500 }]);
      expect(await dataSource.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    } finally {
      await dataSource.destroy();
    }
    expect(openConnectionCount()).toBe(0);
  });

  it('defaults the busy timeout to 5000 ms and resolves a relative path', async () => {
    const databasePath = tmp.file('defaults');
    const relative = path.relative(process.cwd(), databasePath);
    const dataSource = createDataSource({ databasePath: relative, entities: [] });
    expect(dataSource.options.database).toBe(databasePath);
    await dataSource.initialize();
    try {
      expect(await dataSource.query('PRAGMA busy_timeout')).toEqual([{ timeout: 5000 }]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('rejects databases that a per-unit connection could not share', () => {
    expect(() => createDataSource({ databasePath: ':memory:', entities: [] })).toThrow(/file path/);
    expect(() => createDataSource({ databasePath: '', entities: [] })).toThrow(/file path/);
    expect(() => createDataSource({ databasePath: tmp.file('bad-timeout'), entities: [], busyTimeoutMs: -1 })).toThrow(/busyTimeoutMs/);
  });
});

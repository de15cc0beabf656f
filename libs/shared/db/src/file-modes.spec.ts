// Security issue #39: the app database holds the user's facts, postings and applications; it is
// readable by its user only (0600, with its -wal/-shm), whatever the process umask, also when an
// older version left it 0644. Real SQLite files in a temp dir.
import * as fs from 'fs';
import * as path from 'path';
import { createDataSource } from './data-source.factory';
import { runMigrations } from './migration.runner';
import { openConnectionCount } from './sqlite3.driver';
import { tempDbDir } from './testing';

const tmp = tempDbDir('modes');
afterAll(() => tmp.cleanup());
afterEach(() => expect(openConnectionCount()).toBe(0));

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const sidecars = (databasePath: string) => [`${databasePath}-wal`, `${databasePath}-shm`];

/** Runs `fn` under `mask`: 022 is the usual default, which a test runner need not have. */
async function withUmask<T>(mask: number, fn: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(previous);
  }
}

describe('database file modes (#39)', () => {
  it('a fresh database is created 0600 in a 0700 folder (its -wal/-shm too) under umask 022', async () => {
    const databasePath = path.join(path.dirname(tmp.file('fresh')), 'app-dir', 'jobctrl.sqlite');
    await withUmask(0o022, () => runMigrations({ databasePath }));
    expect(mode(path.dirname(databasePath))).toBe(0o700);
    expect(mode(databasePath)).toBe(0o600);

    // -wal and -shm exist while a connection is open; SQLite gives them the database file's mode.
    const dataSource = createDataSource({ databasePath, entities: [] });
    await withUmask(0o022, async () => {
      await dataSource.initialize();
      await dataSource.query('SELECT count(*) FROM migrations');
    });
    try {
      for (const file of sidecars(databasePath)) expect([file, mode(file)]).toEqual([file, 0o600]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('an existing 0644 database and its 0644 -wal/-shm are tightened to 0600 when opened; the folder it was given is left as it is', async () => {
    const databasePath = tmp.file('existing');
    await runMigrations({ databasePath });
    const dir = path.dirname(databasePath);
    // What an install from before #39 left: everything readable by everyone.
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(databasePath, 0o644);
    for (const file of sidecars(databasePath)) fs.writeFileSync(file, '', { mode: 0o644 });
    for (const file of sidecars(databasePath)) fs.chmodSync(file, 0o644);

    await withUmask(0o022, () => runMigrations({ databasePath }));
    expect(mode(databasePath)).toBe(0o600);
    for (const file of sidecars(databasePath)) if (fs.existsSync(file)) expect([file, mode(file)]).toEqual([file, 0o600]);
    // database_path may point anywhere; a folder that already exists is the user's (the app dir is
    // tightened by the stack's start: tools/stack/app-dir.js).
    expect(mode(dir)).toBe(0o755);
  });
});

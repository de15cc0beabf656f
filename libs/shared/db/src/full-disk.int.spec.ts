// Issue #15's full disk for the app database, at the unit-of-work level (the fault suite, npm run
// faults, fills the app database's disk under a running stack): a unit whose write finds no space
// fails with SQLite's own code (a full tmpfs answers SQLITE_IOERR on the WAL write, a full file system
// elsewhere SQLITE_FULL) and leaves nothing half-written; once space is back, the next unit writes and
// every committed row is still there. A real small file system where this process may mount one (a
// tmpfs, as root); where it may not, the database itself is capped (PRAGMA max_page_count on the
// writing connection), which SQLite answers with SQLITE_FULL exactly as for a full disk.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { withUnitOfWork } from './unit-of-work.runner';

function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a full disk under the app database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-full-disk-'));
  const mounted = tryMountTmpfs(dir, '4m');
  const opts = { databasePath: path.join(dir, 'app.sqlite'), entities: [] };
  const filler = path.join(dir, 'filler.bin');

  afterAll(() => {
    if (mounted) execFileSync('umount', [dir], { stdio: 'ignore' });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = () => withUnitOfWork(opts, async (uow) => (await uow.queryRunner.query('SELECT COUNT(*) AS n FROM notes'))[0].n as number);
  const insert = (n: number, opts2: { capped?: boolean } = {}) =>
    withUnitOfWork(opts, async (uow) => {
      if (opts2.capped) {
        const [{ page_count: pages }] = await uow.queryRunner.query('PRAGMA page_count');
        await uow.queryRunner.query(`PRAGMA max_page_count = ${Number(pages) + 2}`);
      }
      await uow.queryRunner.startTransaction();
      for (let i = 0; i < n; i++) await uow.queryRunner.query('INSERT INTO notes (body) VALUES (?)', ['x'.repeat(2000)]);
      await uow.queryRunner.commitTransaction();
    });

  it('a write with no space left fails with a SQLite code and leaves nothing half-written; with space back the next one succeeds', async () => {
    await withUnitOfWork(opts, (uow) => uow.queryRunner.query('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'));
    await insert(10);
    // Fill the file system to the last byte (or, without a mount, cap the database at its size).
    if (mounted) {
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'ignore' });
      } catch {
        // "No space left on device" is how dd ends here
      }
    }
    const err = await insert(200, { capped: !mounted }).then(
      () => null,
      (e: unknown) => e as { code?: string; message: string },
    );
    expect(err).not.toBeNull();
    expect(err?.code ?? err?.message).toMatch(/SQLITE_(FULL|IOERR)/);
    fs.rmSync(filler, { force: true });
    // The failed unit left no rows, the committed ones are intact, and writing works again.
    expect(await count()).toBe(10);
    await insert(5);
    expect(await count()).toBe(15);
  });
});

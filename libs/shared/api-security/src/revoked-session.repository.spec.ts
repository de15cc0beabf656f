import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { SESSION_COOKIE, SessionSigner } from './api-token';
import { apiAuth } from './api-auth.middleware';
import { RevokedSessionRepository } from './revoked-session.repository';

const dbs = tempDbDir('revoked-sessions');
afterAll(() => dbs.cleanup());

async function repository(name: string): Promise<RevokedSessionRepository> {
  const databasePath = dbs.file(name);
  await runMigrations({ databasePath });
  return new RevokedSessionRepository(new UnitOfWorkFactory({ databasePath, entities: [] }));
}

describe('RevokedSessionRepository', () => {
  it('keeps a revocation until the cookie expires; a later write prunes the expired ones', async () => {
    const repo = await repository('prune');
    await repo.add({ nonce: 'aaaaaaaaaaaaaaaa', expiresAt: 1_000 }, 500);
    await repo.add({ nonce: 'bbbbbbbbbbbbbbbb', expiresAt: 5_000 }, 600);
    await repo.add({ nonce: 'bbbbbbbbbbbbbbbb', expiresAt: 5_000 }, 601); // a repeated logout is one row
    expect(await repo.active(700)).toEqual([
      { nonce: 'aaaaaaaaaaaaaaaa', expiresAt: 1_000 },
      { nonce: 'bbbbbbbbbbbbbbbb', expiresAt: 5_000 },
    ]);
    expect(await repo.active(1_000)).toEqual([{ nonce: 'bbbbbbbbbbbbbbbb', expiresAt: 5_000 }]);
    await repo.add({ nonce: 'cccccccccccccccc', expiresAt: 9_000 }, 1_000);
    expect(await repo.count()).toBe(2);
  });

  it('a session logged out through one middleware is refused by the next one built on the same file (a restart)', async () => {
    const repo = await repository('restart');
    const now = () => Date.UTC(2026, 0, 1);
    const cookie = new SessionSigner('the-token', now).issue();
    const check = async (path: string, method = 'GET') => {
      const mw = await apiAuth({ token: 'the-token', boundToLoopback: true, revocationStore: repo, now });
      return new Promise<number>((resolve, reject) => {
        const req = { url: path, method, headers: { host: '127.0.0.1', cookie: `${SESSION_COOKIE}=${cookie}`, accept: 'application/json' }, socket: { remoteAddress: '127.0.0.1' } };
        const res = { statusCode: 200, setHeader: () => undefined, end: () => resolve(res.statusCode) };
        mw(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve(0)));
      });
    };
    expect(await check('/v1/jobs')).toBe(0); // next(): let through
    expect(await check('/v1/auth/logout', 'POST')).toBe(204);
    expect(await repo.count()).toBe(1);
    expect(await check('/v1/jobs')).toBe(401);
  });
});

import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { WorkerHeartbeatEntity } from './worker-heartbeat.entity';
import { HEARTBEAT_RETENTION_MS, WorkerHeartbeatRepository } from './worker-heartbeat.repository';
import { HEARTBEAT_SCHEMA_VERSION, type WorkerHeartbeat } from './worker-heartbeat.model';
import { heartbeatLiveness } from './worker-liveness';

const dbs = tempDbDir('heartbeats');
afterAll(() => dbs.cleanup());

function heartbeat(workerId: string, recordedAt: number): WorkerHeartbeat {
  return {
    workerId,
    taskQueue: 'jobctrl-default',
    databasePath: '/tmp/app.sqlite',
    appDir: '/tmp',
    host: 'h',
    pid: 1,
    activitySlots: 2,
    localControlSlots: 2,
    executorWidth: 4,
    schemaVersion: HEARTBEAT_SCHEMA_VERSION,
    startedAt: recordedAt,
    recordedAt,
    payload: {} as WorkerHeartbeat['payload'],
  };
}

describe('WorkerHeartbeatRepository', () => {
  it('a live worker’s heartbeat prunes rows of workers silent beyond the retention, and keeps merely stale ones', async () => {
    const databasePath = dbs.file('prune');
    await runMigrations({ databasePath });
    const repo = new WorkerHeartbeatRepository(new UnitOfWorkFactory({ databasePath, entities: [WorkerHeartbeatEntity] }));
    const now = Date.UTC(2025, 0, 10);
    await repo.upsert(heartbeat('dead-long-ago', now - HEARTBEAT_RETENTION_MS - 60_000));
    await repo.upsert(heartbeat('stale-an-hour', now - 60 * 60_000));
    await repo.upsert(heartbeat('live', now));
    const ids = (await repo.listForDatabase('/tmp/app.sqlite')).map((r) => r.workerId);
    expect(ids).toEqual(['live', 'stale-an-hour']);
  });

  it("answers the spend ledger which reservation owners are alive, by readiness's stale rule: fresh (until when), stale, or absent", async () => {
    const databasePath = dbs.file('liveness');
    await runMigrations({ databasePath });
    const repo = new WorkerHeartbeatRepository(new UnitOfWorkFactory({ databasePath, entities: [WorkerHeartbeatEntity] }));
    const now = Date.UTC(2025, 0, 10);
    await repo.upsert(heartbeat('live', now - 30_000));
    await repo.upsert(heartbeat('dead', now - 30_001));
    const status = await heartbeatLiveness(repo, 30_000).status(['live', 'dead', 'never'], now);
    expect(Object.fromEntries(status)).toEqual({ live: { state: 'fresh', freshUntil: now }, dead: { state: 'stale' }, never: { state: 'absent' } });
  });
});

import { MockActivityEnvironment } from '@temporalio/testing';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { ActivityGauge } from '@jobctrl/shared/temporal';
import { createSmokeActivities } from './smoke.activities';
import { SmokeProbeRepository } from './smoke-probe.repository';

const dbs = tempDbDir('smoke-probes');
afterAll(() => dbs.cleanup());

async function open() {
  const databasePath = dbs.file('probes');
  await runMigrations({ databasePath });
  return new UnitOfWorkFactory({ databasePath, entities: [] });
}

type ProbeRow = { id: number; workflow_id: string; attempt: number; observed_active: number; started_at: number; finished_at: number | null };
const rows = (uow: UnitOfWorkFactory): Promise<ProbeRow[]> => uow.run(({ manager }) => manager.query('SELECT * FROM smoke_probes ORDER BY id'));

describe('smoke probes on a real SQLite file', () => {
  it('the repository records a start with its own id and finishes that probe only', async () => {
    const uow = await open();
    const probes = new SmokeProbeRepository(uow);
    const start = { workflowId: 'smoke-1', runId: 'r1', activityId: '1', attempt: 1, observedActive: 2, startedAt: 100 };
    const first = await probes.start(start);
    const second = await probes.start({ ...start, activityId: '2' });
    expect(second).toBe(first + 1);
    await probes.finish(first, 200);
    expect((await rows(uow)).map((r) => [r.id, r.observed_active, r.started_at, r.finished_at])).toEqual([
      [first, 2, 100, 200],
      [second, 2, 100, null],
    ]);
  });

  it('a smoke hold commits its start and its end', async () => {
    const uow = await open();
    const { smokeHold } = createSmokeActivities({ gauge: new ActivityGauge(), uow, workerIdentity: 'w1' });
    const result = await new MockActivityEnvironment().run(smokeHold, { index: 3, holdMs: 0 });
    expect(result).toEqual({ index: 3, observedActive: 0, peakActive: 0, workerIdentity: 'w1' });
    const [probe] = await rows(uow);
    expect(probe).toMatchObject({ attempt: 1, observed_active: 0, finished_at: expect.any(Number) });
    expect(probe.finished_at).toBeGreaterThanOrEqual(probe.started_at);
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { BoundedExecutor } from '@jobctrl/shared/temporal';
import type { LifecycleEventInput } from '@jobctrl/pipeline/contracts';
import { createLifecycleActivities } from './lifecycle.activities';
import { LifecycleProjector } from '@jobctrl/shared/jobs';

let dir: string;
let uow: UnitOfWorkFactory;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-lifecycle-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  uow = new UnitOfWorkFactory({ databasePath, entities: [] });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const event = (eventType: LifecycleEventInput['eventType'], runId = 'r1'): LifecycleEventInput => ({
  version: 1,
  tenant: 'local',
  workflowId: 'smoke-1',
  runId,
  workflowType: 'smokeWorkflow',
  eventType,
  payload: { n: 1 },
});

const count = async (sql: string) => (await uow.run(({ manager }) => manager.query(sql)))[0].n as number;

describe('lifecycle events and the run projection', () => {
  it('replaying a lifecycle write after it committed leaves exactly one event', async () => {
    const { recordWorkflowLifecycle } = createLifecycleActivities({ uow, executor: new BoundedExecutor('temporal-sync', 2), projector: new LifecycleProjector(uow) });
    const first = await recordWorkflowLifecycle(event('started'));
    const replay = await recordWorkflowLifecycle(event('started'));
    expect(first).toEqual({ inserted: true, idempotencyKey: 'local/smoke-1/r1/started' });
    expect(replay).toEqual({ inserted: false, idempotencyKey: 'local/smoke-1/r1/started' });
    expect(await count('SELECT COUNT(*) AS n FROM workflow_lifecycle_events')).toBe(1);
    // A new run of the same workflow id is a different event.
    await recordWorkflowLifecycle(event('started', 'r2'));
    expect(await count('SELECT COUNT(*) AS n FROM workflow_lifecycle_events')).toBe(2);
  });

  it('projects runs from the events, and the first terminal event wins', async () => {
    const projector = new LifecycleProjector(uow);
    const { recordWorkflowLifecycle } = createLifecycleActivities({ uow, executor: new BoundedExecutor('temporal-sync', 2), projector });
    await recordWorkflowLifecycle(event('started'));
    expect((await projector.get('smoke-1'))[0]).toMatchObject({ status: 'running', runId: 'r1' });
    await recordWorkflowLifecycle(event('completed'));
    await recordWorkflowLifecycle(event('failed'));
    const [run] = await projector.get('smoke-1');
    expect(run).toMatchObject({ status: 'completed', outcome: JSON.stringify({ version: 1, n: 1 }) });
    expect(run.finishedAt).toEqual(expect.any(Number));
  });

  it('a failed refresh keeps its committed event, and the next refresh projects it', async () => {
    let fail = true;
    const flaky = new LifecycleProjector(uow, async () => {
      if (fail) throw new Error('disk full');
    });
    const logs: string[] = [];
    const { recordWorkflowLifecycle } = createLifecycleActivities({ uow, executor: new BoundedExecutor('temporal-sync', 2), projector: flaky, log: (m) => logs.push(m) });
    // The control itself succeeds: its event is committed even though the projection failed.
    await expect(recordWorkflowLifecycle(event('started'))).resolves.toMatchObject({ inserted: true });
    expect(logs[0]).toContain('disk full');
    expect(await count('SELECT COUNT(*) AS n FROM workflow_lifecycle_events')).toBe(1);
    expect(await count('SELECT COUNT(*) AS n FROM workflow_run_projections')).toBe(0);

    fail = false;
    expect(await flaky.refresh()).toEqual({ folded: 1, cursor: 1 });
    expect((await flaky.get('smoke-1'))[0]).toMatchObject({ status: 'running' });
    expect(await flaky.refresh()).toEqual({ folded: 0, cursor: 1 });
  });
});

import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { PipelineRunRepository } from './pipeline-run.repository';

const dbs = tempDbDir('pipeline-runs');
afterAll(() => dbs.cleanup());

async function registry(): Promise<PipelineRunRepository> {
  const databasePath = dbs.file('runs');
  await runMigrations({ databasePath });
  const runs = new PipelineRunRepository(new UnitOfWorkFactory({ databasePath, entities: [] }));
  await runs.create({ runId: 'r1', workflowId: 'pipeline-r1', stages: ['score'], sourceIds: null });
  return runs;
}

describe('PipelineRunRepository', () => {
  it('records batch progress forward only', async () => {
    const runs = await registry();
    await runs.recordPreparationProgress('r1', { selected: 3, completed: 2, failed: 0 });
    await runs.recordPreparationProgress('r1', { selected: 3, completed: 1, failed: 0 });
    expect((await runs.get('r1'))?.preparation).toEqual({ selected: 3, completed: 2, failed: 0 });
  });

  it('shows and clears a spend pause, and ignores runs it does not know', async () => {
    const runs = await registry();
    await runs.setBlocked('r1', 'spend_ceiling_reached');
    expect((await runs.get('r1'))?.blockedReason).toBe('spend_ceiling_reached');
    await runs.setBlocked('r1', null);
    expect((await runs.get('r1'))?.blockedReason).toBeNull();
    await runs.setBlocked('recovery-batch', 'spend_ceiling_reached');
    expect(await runs.get('recovery-batch')).toBeNull();
  });
});

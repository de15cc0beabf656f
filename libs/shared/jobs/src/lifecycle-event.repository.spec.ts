import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { LifecycleEventRepository, type NewLifecycleEvent } from './lifecycle-event.repository';

const dbs = tempDbDir('lifecycle-events');
afterAll(() => dbs.cleanup());

async function open() {
  const databasePath = dbs.file('events');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  return { uow, events: new LifecycleEventRepository(uow) };
}

const event = (runId: string, eventType: string): NewLifecycleEvent => ({
  idempotencyKey: `local/wf/${runId}/${eventType}`,
  tenant: 'local',
  workflowId: 'wf',
  runId,
  workflowType: 'discoverWorkflow',
  eventType,
  payload: { version: 1, n: 1 },
  recordedAt: 1000,
});

describe('LifecycleEventRepository: the lifecycle event store on a real SQLite file', () => {
  it('inserts an event once per idempotency key', async () => {
    const { uow, events } = await open();
    expect(await events.insertIfAbsent(event('r1', 'started'))).toBe(true);
    expect(await events.insertIfAbsent(event('r1', 'started'))).toBe(false);
    expect(await events.insertIfAbsent(event('r2', 'started'))).toBe(true);
    const all = await uow.run(({ manager }) => events.readAfter(manager, 0, 10));
    expect(all.map((e) => [e.id, e.runId, e.eventType])).toEqual([
      [1, 'r1', 'started'],
      [2, 'r2', 'started'],
    ]);
  });

  it('reads the events after a cursor in id order, a page at a time, with their stored payload', async () => {
    const { uow, events } = await open();
    for (const type of ['started', 'progress', 'completed']) await events.insertIfAbsent(event('r1', type));
    const page = await uow.run(({ manager }) => events.readAfter(manager, 1, 1));
    expect(page).toEqual([
      { id: 2, tenant: 'local', workflowId: 'wf', runId: 'r1', workflowType: 'discoverWorkflow', eventType: 'progress', payload: JSON.stringify({ version: 1, n: 1 }), recordedAt: 1000 },
    ]);
    expect(await uow.run(({ manager }) => events.readAfter(manager, 3, 10))).toEqual([]);
  });
});

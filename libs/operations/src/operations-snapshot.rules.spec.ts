import { aggregateCapacity } from './operations-snapshot.rules';

const now = 1_800_000_000_000;
const ctx = { databasePath: '/data/jobctrl.sqlite', appDir: '/data', now, staleMs: 30_000 };

function item(i: number) {
  return { activityType: 'smokeHold', isLocal: false, workflowType: 'smokeWorkflow', workflowId: `smoke-${i}`, runId: 'r', attempt: 1, startedAt: new Date(now - 100_000 + i * 1000).toISOString() };
}

function row(workerId: string, o: { slots?: number; active?: number; local?: number; detail?: number; detailTotal?: number; recordedAt?: number; taskQueue?: string; databasePath?: string; completed?: number; window?: number } = {}) {
  const detail = Array.from({ length: o.detail ?? 0 }, (_, i) => item(i + (workerId === 'w2' ? 50 : 0)));
  return {
    workerId,
    taskQueue: o.taskQueue ?? 'jobctrl-default',
    databasePath: o.databasePath ?? ctx.databasePath,
    appDir: '/data',
    host: 'h',
    pid: 1,
    activitySlots: o.slots ?? 4,
    localControlSlots: 2,
    executorWidth: (o.slots ?? 4) + 2,
    schemaVersion: 1,
    startedAt: now - 600_000,
    recordedAt: o.recordedAt ?? now - 1_000,
    payload: JSON.stringify({
      activity: {
        remoteActive: o.active ?? 0,
        localActive: o.local ?? 0,
        remoteStarted: 10,
        remoteCompleted: 10,
        detailTotal: o.detailTotal ?? detail.length,
        detail,
        throughput: { windowSeconds: o.window ?? 600, remoteCompleted: o.completed ?? 0 },
      },
    }),
  };
}

describe('aggregateCapacity', () => {
  it('adds up two workers on one queue', () => {
    const c = aggregateCapacity([row('w1', { slots: 4, active: 3, local: 1 }), row('w2', { slots: 2, active: 2 })], ctx);
    expect(c).toMatchObject({ status: 'fresh', taskQueue: 'jobctrl-default', configuredSlots: 6, activeSlots: 5, availableSlots: 1, localControl: { configured: 4, active: 1 } });
    expect(c.workers.map((w) => w.workerId).sort()).toEqual(['w1', 'w2']);
  });

  it('excludes a stale heartbeat and a heartbeat from another database', () => {
    const c = aggregateCapacity(
      [row('w1', { slots: 4, active: 1 }), row('old', { slots: 8, active: 8, recordedAt: now - 60_000 }), row('foreign', { slots: 16, active: 3, databasePath: '/other/jobctrl.sqlite' })],
      ctx,
    );
    expect(c).toMatchObject({ configuredSlots: 4, activeSlots: 1, availableSlots: 3 });
    expect(c.workers.map((w) => w.workerId)).toEqual(['w1']);
  });

  it('uses the task queue named by the newest heartbeat', () => {
    const c = aggregateCapacity([row('a', { taskQueue: 'q-old', recordedAt: now - 5_000 }), row('b', { taskQueue: 'q-new', slots: 3, recordedAt: now - 500 })], ctx);
    expect(c.taskQueue).toBe('q-new');
    expect(c.configuredSlots).toBe(3);
  });

  it('with 25 activities running shows 25 active slots and 20 items with a total of 25', () => {
    const c = aggregateCapacity([row('w1', { slots: 25, active: 25, detail: 20, detailTotal: 25 })], ctx);
    expect(c.activeSlots).toBe(25);
    expect(c.activeItems).toHaveLength(20);
    expect(c.activeItemsTotal).toBe(25);
  });

  it('merges items of several workers oldest first, capped at 20', () => {
    const c = aggregateCapacity([row('w2', { detail: 15 }), row('w1', { detail: 15 })], ctx);
    expect(c.activeItems).toHaveLength(20);
    expect(c.activeItemsTotal).toBe(30);
    const starts = c.activeItems.map((i) => i.startedAt);
    expect([...starts].sort()).toEqual(starts);
    expect(c.activeItems[0].workerId).toBe('w1');
  });

  it('reports stale and missing without inventing capacity', () => {
    expect(aggregateCapacity([row('w1', { recordedAt: now - 60_000 })], ctx)).toMatchObject({ status: 'stale', configuredSlots: 0, availableSlots: 0 });
    expect(aggregateCapacity([], ctx)).toMatchObject({ status: 'missing', taskQueue: null });
  });

  it('sums throughput over the shortest window', () => {
    const c = aggregateCapacity([row('w1', { completed: 60, window: 600 }), row('w2', { completed: 10, window: 60 })], ctx);
    expect(c.throughput).toEqual({ windowSeconds: 60, completed: 16 });
  });
});

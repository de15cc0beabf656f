import { foldRunProjection, LifecycleEventRow } from './run-projection.rules';

const e = (id: number, eventType: string, recordedAt = id * 1000): LifecycleEventRow => ({
  id,
  tenant: 't',
  workflowId: 'w',
  runId: 'r',
  workflowType: 'x',
  eventType,
  payload: `{"e":${id}}`,
  recordedAt,
});

describe('foldRunProjection', () => {
  it('starts running and finishes with the terminal event', () => {
    const p = [e(1, 'started'), e(2, 'completed')].reduce(foldRunProjection, null as never);
    expect(p).toMatchObject({ status: 'completed', startedAt: 1000, finishedAt: 2000, outcome: '{"e":2}', lastEventId: 2 });
  });

  it('is idempotent: an already folded event changes nothing', () => {
    const once = [e(1, 'started'), e(2, 'failed')].reduce(foldRunProjection, null as never);
    expect(foldRunProjection(once, e(2, 'failed'))).toBe(once);
  });

  it('never undoes a terminal state with a late start or a second outcome', () => {
    const p = [e(1, 'cancelled'), e(2, 'started'), e(3, 'completed')].reduce(foldRunProjection, null as never);
    expect(p).toMatchObject({ status: 'cancelled', startedAt: 2000, finishedAt: 1000, lastEventId: 3 });
  });
});

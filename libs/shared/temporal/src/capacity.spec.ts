import { createWorkerExecutors, workerCapacity } from './capacity';

describe('workerCapacity', () => {
  it('derives executor widths and the libuv pool from the activity slots', () => {
    expect(workerCapacity(4)).toEqual({ remoteActivitySlots: 4, localControlSlots: 2, executorWidth: 6, uvThreadpoolSize: 16 });
    expect(workerCapacity(1).executorWidth).toBe(3);
  });

  it('rejects a non-positive slot count', () => {
    expect(() => workerCapacity(0)).toThrow('worker_activity_slots');
    expect(() => workerCapacity(2.5)).toThrow('positive integer');
  });

  it('builds two independent executors of width slots + 2', () => {
    const ex = createWorkerExecutors(workerCapacity(2));
    expect(ex.temporalSync.width).toBe(4);
    expect(ex.blockingStage.width).toBe(4);
    expect(ex.temporalSync).not.toBe(ex.blockingStage);
  });
});

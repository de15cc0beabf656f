import { createWorkerExecutors, workerCapacity } from './capacity';

describe('workerCapacity', () => {
  it('derives executor widths and the libuv pool from the activity slots', () => {
    expect(workerCapacity(4, 2, 2)).toEqual({ remoteActivitySlots: 4, localControlSlots: 2, executorWidth: 6, uvThreadpoolSize: 16, cpuThreads: 2 });
    expect(workerCapacity(1).executorWidth).toBe(3);
  });

  it('sizes the CPU pool by the cores, at least two threads, never wider than the blocking-stage executor', () => {
    expect(workerCapacity(4, 2, 2).cpuThreads).toBe(2);
    expect(workerCapacity(4, 2, 16).cpuThreads).toBe(6);
    expect(workerCapacity(4, 2, 1).cpuThreads).toBe(2);
    expect(workerCapacity(1, 2, 8).cpuThreads).toBe(3);
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

import { BoundedExecutor } from '@jobctrl/shared/temporal';
import { HeartbeatWriter } from './heartbeat.writer';
import type { WorkerHeartbeat } from './worker-heartbeat.model';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const snapshot = () => ({ workerId: 'w1', recordedAt: Date.now() }) as unknown as WorkerHeartbeat;

describe('HeartbeatWriter', () => {
  it('skips a tick while the previous write is still waiting, instead of piling writes up', async () => {
    const gate = deferred();
    const persisted: WorkerHeartbeat[] = [];
    const writer = new HeartbeatWriter({
      persist: async (hb) => {
        await gate.promise;
        persisted.push(hb);
      },
      remove: async () => undefined,
      executor: new BoundedExecutor('temporal-sync', 2),
      snapshot,
      intervalMs: 1_000,
    });
    const first = writer.tick();
    void writer.tick();
    void writer.tick();
    expect(writer.status().skipped).toBe(2);
    gate.resolve();
    await first;
    expect(persisted).toHaveLength(1);
    expect(writer.status().ok).toBe(1);
  });

  it('counts a failed write and keeps going; it never throws', async () => {
    let fail = true;
    const logs: string[] = [];
    const writer = new HeartbeatWriter({
      persist: async () => {
        if (fail) throw new Error('SQLITE_BUSY: database is locked');
      },
      remove: async () => undefined,
      executor: new BoundedExecutor('temporal-sync', 1),
      snapshot,
      intervalMs: 1_000,
      log: (m) => logs.push(m),
    });
    await expect(writer.tick()).resolves.toBeUndefined();
    expect(writer.status()).toMatchObject({ ok: 0, failed: 1, lastError: 'SQLITE_BUSY: database is locked' });
    expect(logs[0]).toContain('stale');
    fail = false;
    await writer.tick();
    expect(writer.status()).toMatchObject({ ok: 1, failed: 1, lastError: null });
  });

  it('hands its counters to the snapshot, and removes its row on a clean stop', async () => {
    const seen: number[] = [];
    const removed: string[] = [];
    const writer = new HeartbeatWriter({
      persist: async () => undefined,
      remove: async (id) => {
        removed.push(id);
      },
      executor: new BoundedExecutor('temporal-sync', 1),
      snapshot: (writes) => {
        seen.push(writes.ok);
        return snapshot();
      },
      intervalMs: 60_000,
    });
    writer.start(); // writes at once
    await writer.tick(); // joins that in-flight write (counted as skipped)
    await writer.tick(); // a second write, which sees the first one's counters
    await writer.stop();
    expect(seen).toEqual([0, 1]);
    expect(removed).toEqual(['w1']);
  });
});

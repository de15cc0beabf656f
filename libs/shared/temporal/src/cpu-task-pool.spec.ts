import * as path from 'node:path';
import { CpuTaskPool, CpuTaskError } from './cpu-task-pool';

const fixture = path.join(__dirname, 'cpu-task.fixture.ts');

describe('CpuTaskPool', () => {
  let pool: CpuTaskPool;
  beforeAll(() => {
    pool = new CpuTaskPool({ width: 2 });
  });
  afterAll(() => pool.close());

  it('runs CPU-bound work off the event loop: timers keep firing while it burns', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    const result = await pool.run<{ ms: number }, { iterations: number }>(fixture, 'burn', { ms: 400 });
    clearInterval(timer);
    expect(result.iterations).toBeGreaterThan(0);
    // Had the burn run on the main thread, no interval callback could have run until it returned.
    expect(ticks).toBeGreaterThan(3);
  });

  it('reports errors thrown in the thread', async () => {
    await expect(pool.run(fixture, 'fail', {})).rejects.toMatchObject({ name: 'CpuTaskError', remoteName: 'TypeError' });
  });

  it('cancellation terminates a thread that never yields, and the pool keeps working', async () => {
    const ac = new AbortController();
    const spinning = pool.run(fixture, 'spinForever', {}, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 200));
    ac.abort();
    await expect(spinning).rejects.toMatchObject({ name: 'ExecutorCancelledError', phase: 'running', settledWithinGrace: true });
    const after = await pool.run<{ ms: number }, { iterations: number }>(fixture, 'burn', { ms: 10 });
    expect(after.iterations).toBeGreaterThan(0);
    expect(pool.stats().retiredRunning).toBe(0);
  });

  it('a call that throws in its thread gives the thread back: failures do not strand threads', async () => {
    const one = new CpuTaskPool({ width: 1 });
    try {
      const first = await one.run<object, number>(fixture, 'whichThread', {});
      for (let i = 0; i < 3; i += 1) await expect(one.run(fixture, 'fail', {})).rejects.toMatchObject({ remoteName: 'TypeError' });
      expect(one.stats().threads).toBe(1);
      expect(await one.run<object, number>(fixture, 'whichThread', {})).toBe(first);
    } finally {
      await one.close();
    }
  });

  it('warm() starts every thread of its width and loads the module in each', async () => {
    const fresh = new CpuTaskPool({ width: 3 });
    try {
      await fresh.warm(fixture, 'whichThread', {});
      expect(fresh.stats().threads).toBe(3);
      // Three calls at once on the warmed pool run on three distinct, already started threads.
      const ids = await Promise.all([1, 2, 3].map(() => fresh.run<object, number>(fixture, 'whichThread', {})));
      expect(new Set(ids).size).toBe(3);
      expect(fresh.stats().threads).toBe(3);
    } finally {
      await fresh.close();
    }
  });

  it('exposes CpuTaskError for callers', () => {
    expect(new CpuTaskError('x', 'Y')).toBeInstanceOf(Error);
  });
});

import { BoundedExecutor, ExecutorCancelledError, ExecutorShutDownError } from './bounded-executor';

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('BoundedExecutor', () => {
  it('runs at most `width` tasks at once and queues the rest in order', async () => {
    const ex = new BoundedExecutor('test', 2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    const runs = gates.map((gate, i) =>
      ex.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        order.push(i);
        await gate.promise;
        running -= 1;
        return i;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(ex.stats()).toMatchObject({ running: 2, queued: 3 });
    gates.forEach((g) => g.resolve());
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('propagates task errors and frees the permit', async () => {
    const ex = new BoundedExecutor('test', 1);
    await expect(ex.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(ex.run(async () => 'next')).resolves.toBe('next');
  });

  it('removes a cancelled queued task without running it', async () => {
    const ex = new BoundedExecutor('test', 1);
    const gate = deferred();
    const first = ex.run(() => gate.promise);
    const ac = new AbortController();
    let ran = false;
    const second = ex.run(async () => {
      ran = true;
    }, { signal: ac.signal });
    ac.abort();
    await expect(second).rejects.toMatchObject({ phase: 'queued' });
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    expect(ex.stats().queued).toBe(0);
  });

  it('retires the generation before the grace wait: a retry runs at once while the stuck call ignores cancellation', async () => {
    const ex = new BoundedExecutor('blocking-stage', 1, { graceMs: 60_000 });
    const stuck = deferred<string>(); // never resolved by the task's own signal: it ignores cancellation
    const ac = new AbortController();
    const first = ex.run(() => stuck.promise, { signal: ac.signal });
    await new Promise((r) => setImmediate(r));
    expect(ex.stats()).toMatchObject({ generation: 1, running: 1 });

    ac.abort();
    // The retry is admitted by the fresh generation although the old call still holds its permit
    // and the cancelled caller is still inside its (long) grace wait.
    const retry = await ex.run(async () => 'retried');
    expect(retry).toBe('retried');
    expect(ex.stats()).toMatchObject({ generation: 2, running: 0, retiredRunning: 1, retiredGenerations: 1 });

    // When the stuck call finally settles, the cancelled caller sees a cancellation (not the late
    // result) and the retired generation is gone.
    stuck.resolve('late');
    await expect(first).rejects.toBeInstanceOf(ExecutorCancelledError);
    await expect(first).rejects.toMatchObject({ phase: 'running', settledWithinGrace: true });
    expect(ex.stats()).toMatchObject({ retiredRunning: 0, retiredGenerations: 0 });
  });

  it('keeps the fresh generation bounded to its width', async () => {
    const ex = new BoundedExecutor('blocking-stage', 2, { graceMs: 10 });
    const stuck = deferred();
    const ac = new AbortController();
    const cancelled = ex.run(() => stuck.promise, { signal: ac.signal });
    ac.abort();
    await expect(cancelled).rejects.toMatchObject({ phase: 'running', settledWithinGrace: false });

    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((g) => ex.run(() => g.promise));
    await new Promise((r) => setImmediate(r));
    expect(ex.stats()).toMatchObject({ running: 2, queued: 1, retiredRunning: 1 });
    gates.forEach((g) => g.resolve());
    stuck.resolve();
    await Promise.all(runs);
  });

  it('passes an abort signal to the task so cooperative work can stop early', async () => {
    const ex = new BoundedExecutor('test', 1, { graceMs: 60_000 });
    const ac = new AbortController();
    const run = ex.run(
      (signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true })),
      { signal: ac.signal },
    );
    await new Promise((r) => setImmediate(r));
    ac.abort();
    await expect(run).rejects.toMatchObject({ phase: 'running', settledWithinGrace: true });
  });

  it('shutdown stops admission and drains running work', async () => {
    const ex = new BoundedExecutor('test', 1);
    const gate = deferred();
    let finished = false;
    const running = ex.run(async () => {
      await gate.promise;
      finished = true;
    });
    const shutdown = ex.shutdown();
    await expect(ex.run(async () => 1)).rejects.toBeInstanceOf(ExecutorShutDownError);
    gate.resolve();
    await shutdown;
    await running;
    expect(finished).toBe(true);
  });
});

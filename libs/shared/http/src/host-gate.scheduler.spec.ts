import { HostGate } from './host-gate.scheduler';
import { RequestAbortedError } from './http.errors';
import { FakeClock } from './testing/fake-clock.testing';

/** Acquires and records the clock time of each grant, in grant order. */
function recorder(clock: FakeClock) {
  const granted: { name: string; at: number; release: () => void }[] = [];
  return {
    granted,
    take(gate: HostGate, name: string, signal?: AbortSignal): Promise<void> {
      return gate.acquire(name, signal).then((release) => {
        granted.push({ name, at: clock.now(), release });
      });
    },
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HostGate', () => {
  it('grants in FIFO order, spacing starts by minSpacingMs', async () => {
    const clock = new FakeClock(0);
    const gate = new HostGate(clock, { minSpacingMs: 100, maxInFlight: 10 });
    const r = recorder(clock);
    for (const name of ['a', 'b', 'c']) void r.take(gate, name);
    await flush();
    clock.advance(99);
    await flush();
    expect(r.granted.map((g) => g.name)).toEqual(['a']);
    clock.advance(1);
    await flush();
    clock.advance(100);
    await flush();
    expect(r.granted.map((g) => [g.name, g.at])).toEqual([
      ['a', 0],
      ['b', 100],
      ['c', 200],
    ]);
    expect(gate.peakInFlight).toBe(3);
  });

  it('never exceeds maxInFlight and admits the next waiter on release', async () => {
    const clock = new FakeClock(0);
    const gate = new HostGate(clock, { minSpacingMs: 0, maxInFlight: 1 });
    const r = recorder(clock);
    void r.take(gate, 'a');
    void r.take(gate, 'b');
    await flush();
    expect(r.granted.map((g) => g.name)).toEqual(['a']);
    expect(gate.queued).toBe(1);
    r.granted[0].release();
    r.granted[0].release(); // a second release must not free a second slot
    await flush();
    expect(r.granted.map((g) => g.name)).toEqual(['a', 'b']);
    expect(gate.inFlight).toBe(1);
    expect(gate.peakInFlight).toBe(1);
  });

  it('holds every waiter until the cooldown ends and only ever extends it', async () => {
    const clock = new FakeClock(0);
    const gate = new HostGate(clock, { minSpacingMs: 0, maxInFlight: 5 });
    gate.coolDownUntil(1000);
    gate.coolDownUntil(500);
    expect(gate.cooldownUntil).toBe(1000);
    const r = recorder(clock);
    void r.take(gate, 'a');
    void r.take(gate, 'b');
    clock.advance(999);
    await flush();
    expect(r.granted).toHaveLength(0);
    clock.advance(1);
    await flush();
    expect(r.granted.map((g) => [g.name, g.at])).toEqual([
      ['a', 1000],
      ['b', 1000],
    ]);
  });

  it('drops an aborted waiter from the queue and re-arms for the next one', async () => {
    const clock = new FakeClock(0);
    const gate = new HostGate(clock, { minSpacingMs: 0, maxInFlight: 1 });
    const r = recorder(clock);
    void r.take(gate, 'first');
    await flush();
    const controller = new AbortController();
    const aborted = r.take(gate, 'aborted', controller.signal);
    void r.take(gate, 'last');
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(RequestAbortedError);
    expect(gate.queued).toBe(1);
    r.granted[0].release();
    await flush();
    expect(r.granted.map((g) => g.name)).toEqual(['first', 'last']);
    expect(gate.requests).toBe(2);
  });

  it('leaves no timer behind once its queue is empty', async () => {
    const clock = new FakeClock(0);
    const gate = new HostGate(clock, { minSpacingMs: 0, maxInFlight: 1 });
    gate.coolDownUntil(10_000);
    const controller = new AbortController();
    const waiting = gate.acquire('x', controller.signal);
    expect(clock.pending()).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pending()).toBe(0);
  });

  it('rejects an already-aborted signal without queueing', async () => {
    const gate = new HostGate(new FakeClock(0), { minSpacingMs: 0, maxInFlight: 1 });
    await expect(gate.acquire('x', AbortSignal.abort())).rejects.toBeInstanceOf(RequestAbortedError);
    expect(gate.queued).toBe(0);
    expect(gate.requests).toBe(0);
  });
});

import { mapInOrder } from './ordered-map.util';

async function all<R>(it: AsyncIterable<R>): Promise<R[]> {
  const out: R[] = [];
  for await (const r of it) out.push(r);
  return out;
}

describe('mapInOrder', () => {
  it('keeps at most `width` calls in flight and yields in input order, whatever order they finish in', async () => {
    let inFlight = 0;
    let peak = 0;
    const delays = [30, 5, 20, 1, 10, 2, 15];
    const results = await all(
      mapInOrder(delays, 3, async (ms) => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight--;
        return ms;
      }),
    );
    expect(results).toEqual(delays);
    expect(peak).toBe(3);
  });

  it('runs one at a time with width 1, and starts nothing after an abort', async () => {
    const started: number[] = [];
    const controller = new AbortController();
    const run = all(
      mapInOrder([1, 2, 3, 4], 1, async (n) => {
        started.push(n);
        if (n === 2) controller.abort();
        return n;
      }, controller.signal),
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(started).toEqual([1, 2]);
  });

  it('lets started calls settle before a failure surfaces', async () => {
    const settled: number[] = [];
    const run = all(
      mapInOrder([1, 2, 3], 3, async (n) => {
        await new Promise((r) => setTimeout(r, n * 10));
        settled.push(n);
        if (n === 1) throw new Error('boom');
        return n;
      }),
    );
    await expect(run).rejects.toThrow('boom');
    expect(settled.sort()).toEqual([1, 2, 3]);
  });
});

import * as os from 'node:os';
import { machineCpu, machineCpuBetween } from './bench-support';

describe('machineCpuBetween', () => {
  it('is the busy share of every core between two samples, and the CPU time it stands for', () => {
    // 2 s of wall on this machine's cores; 3 of every 4 jiffies busy.
    const a = { busy: 1000, total: 4000, at: 10_000 };
    const b = { busy: 1300, total: 4400, at: 12_000 };
    expect(machineCpuBetween(a, b)).toEqual({ utilisation: 0.75, cpu_s: Math.round(0.75 * os.cpus().length * 2 * 10) / 10 });
  });

  it('has no answer without two samples or when the counters did not move', () => {
    const a = { busy: 10, total: 20, at: 0 };
    expect(machineCpuBetween(undefined, a)).toBeUndefined();
    expect(machineCpuBetween(a, undefined)).toBeUndefined();
    expect(machineCpuBetween(a, { ...a, at: 5 })).toBeUndefined();
  });

  it('reads /proc/stat on Linux: busy within total, both growing', () => {
    const first = machineCpu();
    if (process.platform !== 'linux') return expect(first).toBeUndefined();
    const deadline = Date.now() + 50;
    while (Date.now() < deadline); // keep a core busy so the counters move
    const second = machineCpu();
    if (!first || !second) throw new Error('/proc/stat could not be read on Linux');
    expect(second.busy).toBeGreaterThanOrEqual(first.busy);
    expect(second.total).toBeGreaterThan(first.total);
    expect(second.busy).toBeLessThanOrEqual(second.total);
  });
});

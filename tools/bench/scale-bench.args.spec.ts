import { UsageError } from './bench-args';
import { parseScaleArgs } from './scale-bench.args';

describe('bench:scale flags', () => {
  it('runs 100, 1,000 and 5,000 postings after a 20-posting warm-up, detail pages on their own host, no browser', () => {
    expect(parseScaleArgs([])).toEqual({ sizes: [100, 1000, 5000], warmup: 20, latencyMs: 0, slots: 4, seed: 1, timeoutS: 900, browser: null, singleHost: false, keepDbs: false });
  });

  it('takes a comma-separated list of sizes, and the other flags', () => {
    expect(parseScaleArgs(['--sizes', '100, 1000', '--warmup', '0', '--browser', '/usr/bin/chromium', '--single-host', '--keep-dbs'])).toMatchObject({
      sizes: [100, 1000],
      warmup: 0,
      browser: '/usr/bin/chromium',
      singleHost: true,
      keepDbs: true,
    });
  });

  it('refuses a size that is not a positive integer, naming the flag', () => {
    expect(() => parseScaleArgs(['--sizes', '100,abc'])).toThrow(UsageError);
    expect(() => parseScaleArgs(['--sizes', '0'])).toThrow(/--sizes/);
  });
});

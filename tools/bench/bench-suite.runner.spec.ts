import { BenchRun, figures, lastJsonLine, markdownTable, SUITE, TARGETS } from './bench-suite.runner';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const run = (name: string, result: Record<string, unknown> | null): BenchRun => ({ name, command: `npm run -s bench:${name}`, exitCode: result ? 0 : 1, wallMs: 10, result });

describe('bench suite', () => {
  it('reads the last stdout line as the result, skipping progress lines and trailing blanks', () => {
    expect(lastJsonLine('progress\n{"a":1}\n{"ttfs_ratio":4.2}\n\n')).toEqual({ ttfs_ratio: 4.2 });
  });

  it('names what it found instead of a JSON object', () => {
    expect(() => lastJsonLine('')).toThrow(/printed nothing/);
    expect(() => lastJsonLine('{"a":1}\ndone')).toThrow(/not JSON: "done"/);
    expect(() => lastJsonLine('[1,2]')).toThrow(/not a JSON object/);
  });

  it('judges each target in its direction; a failed bench or a missing field is unknown, never met', () => {
    const figs = figures([run('discover', { ttfs_ratio: 16, ttfs_ms: 1600, total_ratio: 'n/a' }), run('rescore', null)]);
    const by = (bench: string, field: string) => figs.find((f) => f.bench === bench && f.field === field);
    expect(by('discover', 'ttfs_ratio')).toMatchObject({ measured: 16, verdict: 'met' });
    expect(by('discover', 'ttfs_ms')).toMatchObject({ measured: 1600, verdict: 'missed' });
    expect(by('discover', 'total_ratio')).toMatchObject({ measured: null, verdict: 'unknown' });
    expect(by('rescore', 'jobs_per_s')).toMatchObject({ measured: null, verdict: 'unknown' });
    expect(by('start', 'worker_rss_mb')).toMatchObject({ verdict: 'unknown' });
    expect(figs).toHaveLength(TARGETS.length);
  });

  it('reports each bounded figure beside its CPU ceiling, and says when the target lies beyond it', () => {
    const figs = figures([
      run('discover', { total_ratio: 0.64, total_ratio_cpu_ceiling: 0.66 }),
      run('prepare_200ms', { efficiency: 0.9, efficiency_cpu_ceiling: 1 }),
      run('prepare_50ms', { efficiency: 0.5 }),
    ]);
    const by = (bench: string, field: string) => figs.find((f) => f.bench === bench && f.field === field);
    expect(by('discover', 'total_ratio')).toMatchObject({ verdict: 'missed', ceilingMeasured: 0.66, beyondCeiling: true });
    expect(by('prepare_200ms', 'efficiency')).toMatchObject({ verdict: 'missed', ceilingMeasured: 1, beyondCeiling: false });
    expect(by('prepare_50ms', 'efficiency')).toMatchObject({ ceilingMeasured: null, beyondCeiling: false });
    expect(by('discover', 'ttfs_ratio')).toMatchObject({ ceilingMeasured: null, beyondCeiling: false });
    const table = markdownTable(figs, { cpus: 2, cpuModel: 'Test CPU', memGiB: 24, node: 'v20.0.0', platform: 'linux/x64', loadavgStart: [0, 0, 0] }, { date: '2026-12-03', commit: 'abc1234', size: 'full' });
    expect(table).toContain('| discover | `total_ratio` | 0.640 | ≥ 1.3 | missed | 0.660 (target beyond it) |');
    expect(table).toContain('| prepare_200ms | `efficiency` | 0.900 | ≥ 0.95 | missed | 1 |');
    expect(table).toContain('| prepare_50ms | `efficiency` | 0.500 | ≥ 0.75 | missed | unknown |');
    expect(table).toContain('| discover | `ttfs_ratio` | unknown | ≥ 15 | unknown |  |');
  });

  it('renders one table row per target and names the machine', () => {
    const table = markdownTable(figures([run('prepare_50ms', { efficiency: 0.812 })]), { cpus: 2, cpuModel: 'Test CPU', memGiB: 24, node: 'v20.0.0', platform: 'linux/x64', loadavgStart: [0.1, 0.2, 0.3] }, { date: '2026-12-01', commit: 'abc1234', size: 'small' });
    expect(table).toContain('| prepare_50ms | `efficiency` | 0.812 | ≥ 0.75 | met | unknown |');
    expect(table).toContain('| rescore | `jobs_per_s` | unknown | ≥ 25 jobs/s | unknown | unknown |');
    expect(table).toContain('2 × Test CPU, 24 GiB, Node v20.0.0');
    expect(table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| bench'))).toHaveLength(TARGETS.length);
  });

  it('runs only scripts that package.json declares, and every target belongs to a bench of the suite', () => {
    const scripts = Object.keys(JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')).scripts as Record<string, string>);
    const missing = SUITE.map((s) => s.script).filter((s) => !scripts.includes(s));
    expect(missing).toEqual([]);
    expect(TARGETS.filter((t) => !SUITE.some((s) => s.name === t.bench))).toEqual([]);
  });
});

// The logic of `npm run bench` (tools/bench/suite.bench.ts): which benches run with which flags, how
// a bench's result is read from its output, how each figure compares with the issue #14 target, and
// the Markdown table the README carries. Kept apart from the command so it can be unit-tested.

export type SuiteSize = 'small' | 'full';

export interface SuiteEntry {
  /** Key in bench-results.json and in the table. */
  name: string;
  /** The package.json script it runs (`npm run -s <script> -- <args>`). */
  script: string;
  args: Record<SuiteSize, string[]>;
}

/**
 * Every bench, in the order they run: the cheap ones first, so a broken setup fails fast. `small`
 * keeps the whole suite to a few minutes on 2 cores; `full` uses the sizes the targets are stated at.
 */
export const SUITE: SuiteEntry[] = [
  { name: 'compensation', script: 'bench:compensation', args: { small: [], full: [] } },
  // Two runs: on a stale tree the first one builds, and the figure is the median of those that did not.
  { name: 'start', script: 'bench:start', args: { small: ['--runs', '2'], full: ['--runs', '3'] } },
  { name: 'discover', script: 'bench:discover', args: { small: [], full: ['--repeat', '3'] } },
  { name: 'prepare_50ms', script: 'bench:prepare', args: { small: ['--jobs', '40', '--latency-ms', '50'], full: ['--latency-ms', '50'] } },
  { name: 'prepare_200ms', script: 'bench:prepare', args: { small: ['--jobs', '40'], full: [] } },
  { name: 'rescore', script: 'bench:rescore', args: { small: ['--jobs', '200'], full: ['--jobs', '1000'] } },
  // The same profile update with 16 jobs at once instead of the default 2: where the cores, not the
  // round trips of two lanes, set the pace (pipeline_internal_concurrency is the user's knob).
  { name: 'rescore_16_lanes', script: 'bench:rescore', args: { small: ['--jobs', '200', '--concurrency', '16', '--no-breakdown'], full: ['--jobs', '1000', '--concurrency', '16', '--no-breakdown'] } },
  { name: 'scale', script: 'bench:scale', args: { small: ['--sizes', '100,1000'], full: ['--sizes', '100,1000,5000'] } },
];

export interface Target {
  bench: string;
  field: string;
  /** `min`: the figure must be at least `value`; `max`: at most. */
  direction: 'min' | 'max';
  value: number;
  unit?: string;
  /**
   * The field of the same result that bounds this figure on the machine it ran on: the best it could
   * have been with the CPU work the run did, every core busy without a gap. A target beyond its
   * ceiling cannot be met by more overlap or more lanes, only by less work per job.
   */
  ceiling?: string;
}

/** The targets of issue #14 (2-core machine). */
export const TARGETS: Target[] = [
  { bench: 'discover', field: 'ttfs_ratio', direction: 'min', value: 15 },
  { bench: 'discover', field: 'ttfs_ms', direction: 'max', value: 1500, unit: 'ms' },
  { bench: 'discover', field: 'total_ratio', direction: 'min', value: 1.3, ceiling: 'total_ratio_cpu_ceiling' },
  { bench: 'scale', field: 'ms_per_job_ratio', direction: 'max', value: 1.5 },
  { bench: 'rescore', field: 'jobs_per_s', direction: 'min', value: 25, unit: 'jobs/s', ceiling: 'cpu_bound_jobs_per_s' },
  { bench: 'rescore_16_lanes', field: 'jobs_per_s', direction: 'min', value: 25, unit: 'jobs/s', ceiling: 'cpu_bound_jobs_per_s' },
  { bench: 'prepare_50ms', field: 'efficiency', direction: 'min', value: 0.75, ceiling: 'efficiency_cpu_ceiling' },
  { bench: 'prepare_200ms', field: 'efficiency', direction: 'min', value: 0.95, ceiling: 'efficiency_cpu_ceiling' },
  { bench: 'start', field: 'worker_rss_mb', direction: 'max', value: 250, unit: 'MB' },
  { bench: 'start', field: 'api_rss_mb', direction: 'max', value: 150, unit: 'MB' },
  { bench: 'start', field: 'start_to_ready_ms', direction: 'max', value: 8000, unit: 'ms' },
  { bench: 'compensation', field: 'accuracy', direction: 'min', value: 0.9 },
];

export interface BenchRun {
  name: string;
  command: string;
  exitCode: number | null;
  wallMs: number;
  /** The 1-min load average the bench started at, and how long the suite waited for it to settle. */
  loadBefore?: number;
  settledMs?: number;
  /** The bench's JSON last line; null when it failed or printed none. */
  result: Record<string, unknown> | null;
  /** Why there is no result (exit status, signal, a last line that is not JSON). */
  error?: string;
}

/**
 * A bench's result: the last non-empty stdout line, which must be one JSON object (every bench of
 * this folder ends that way). Anything else is an error naming what was there instead.
 */
export function lastJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  const last = lines.at(-1);
  if (last === undefined) throw new Error('printed nothing on stdout');
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    throw new Error(`last stdout line is not JSON: ${JSON.stringify(last.slice(0, 120))}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`last stdout line is not a JSON object: ${JSON.stringify(last.slice(0, 120))}`);
  return parsed as Record<string, unknown>;
}

export type Verdict = 'met' | 'missed' | 'unknown';

export interface Figure extends Target {
  /** The measured figure; null when the bench failed or did not report the field. */
  measured: number | null;
  verdict: Verdict;
  /** The run's own bound for the figure (Target.ceiling); null when the target has none or the run did not report it. */
  ceilingMeasured: number | null;
  /** The target lies beyond that bound: this build cannot meet it on this machine, however it overlaps. */
  beyondCeiling: boolean;
}

/** Every target against what the runs measured; a missing bench or field is `unknown`, never met. */
export function figures(runs: BenchRun[]): Figure[] {
  return TARGETS.map((t) => {
    const result = runs.find((r) => r.name === t.bench)?.result;
    const num = (raw: unknown) => (typeof raw === 'number' && Number.isFinite(raw) ? raw : null);
    const reaches = (n: number) => (t.direction === 'min' ? n >= t.value : n <= t.value);
    const measured = num(result?.[t.field]);
    const verdict: Verdict = measured === null ? 'unknown' : reaches(measured) ? 'met' : 'missed';
    const ceilingMeasured = t.ceiling ? num(result?.[t.ceiling]) : null;
    return { ...t, measured, verdict, ceilingMeasured, beyondCeiling: ceilingMeasured !== null && !reaches(ceilingMeasured) };
  });
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memGiB: number;
  node: string;
  platform: string;
  loadavgStart: number[];
}

/** The README table: one row per target, then the machine and the command it came from. */
export function markdownTable(figs: Figure[], machine: Machine, meta: { date: string; commit: string; size: SuiteSize }): string {
  const fmt = (n: number | null) => (n === null ? 'unknown' : Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1));
  const ceiling = (f: Figure) => (f.ceilingMeasured === null ? (f.ceiling ? 'unknown' : '') : `${fmt(f.ceilingMeasured)}${f.beyondCeiling ? ' (target beyond it)' : ''}`);
  const rows = figs.map(
    (f) => `| ${f.bench} | \`${f.field}\` | ${fmt(f.measured)}${f.measured !== null && f.unit ? ` ${f.unit}` : ''} | ${f.direction === 'min' ? '≥' : '≤'} ${f.value}${f.unit ? ` ${f.unit}` : ''} | ${f.verdict} | ${ceiling(f)} |`,
  );
  return [
    '| bench | field | measured | target | | CPU ceiling |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'CPU ceiling: the best the figure could have been with the CPU work that run did and every core busy without a gap (the bench reports it beside the figure; tools/bench/README.md).',
    '',
    `Measured ${meta.date} at ${meta.commit} with \`npm run bench${meta.size === 'full' ? ' -- --full' : ''}\` on ${machine.cpus} × ${machine.cpuModel}, ${machine.memGiB} GiB, Node ${machine.node} (${machine.platform}), load average at start ${machine.loadavgStart.map((l) => l.toFixed(2)).join(' / ')}.`,
  ].join('\n');
}

import { parseArgs, type ParseArgsConfig } from 'node:util';

export type PhaseName = 'streaming' | 'batch';
export type BaselineMode = 'auto' | 'direct' | 'workflow';

export interface BenchOptions {
  /** Board families (first F of greenhouse, lever, ashby, smartrecruiters). */
  families: number;
  /** Postings per board (the simulator's jobsPerBoard). */
  jobs: number;
  /** Simulator latency for every request (boards, detail pages, robots.txt). */
  latencyMs: number;
  /** Remote activity slots of each worker; also bounds the baseline's scoreJob calls. */
  slots: number;
  seed: number;
  /** Give up on one ordering after this long. */
  timeoutS: number;
  /** Which ordering runs first (the second one runs in a warmed-up process). */
  order: [PhaseName, PhaseName];
  /** Run both orderings this many times (fresh databases each); the headline numbers are medians. */
  repeat: number;
  /** How the batch baseline calls the activities: directly (MockActivityEnvironment) or from a workflow. */
  baseline: BaselineMode;
  /** Keep both SQLite databases (their paths are printed and put into the JSON). */
  keepDbs: boolean;
  /** Detail pages on the board API's host (the old bench) instead of a job-page host of their own. */
  singleHost: boolean;
  /** Chromium for JavaScript-only detail pages (both orderings), or null: such pages fail enrichment. */
  browser: string | null;
}

export const USAGE = `Usage: npm run bench:discover -- [flags]

Time to first score (TTFS) and total time of DiscoverWorkflow (streaming, the product) vs. the same
activities in strict batch order, against one board simulator and a fresh SQLite database each.

  --families N      board families, 1..4 (greenhouse, lever, ashby, smartrecruiters)   default 4
  --jobs K          postings per board                                               default 50
  --latency-ms MS   simulator latency per request                                    default 50
  --slots S         worker remote activity slots; batch scoreJob concurrency         default 4
  --seed N          simulator seed                                                   default 1
  --timeout-s S     give up on one ordering after S seconds                          default 240
  --repeat N        run both orderings N times; headline numbers are medians        default 1
  --order ORDER     streaming-first | batch-first                                    default streaming-first
  --baseline MODE    batch baseline: direct (activities called in MockActivityEnvironment),
                    workflow (batch-discover.workflow.ts on a worker), auto = direct
                    when @temporalio/testing is installed                           default auto
  --keep-dbs        keep both SQLite databases for inspection (paths in the JSON)
  --single-host     detail pages on the boards' API host (default: a job-page host of their own)
  --browser PATH    Chromium for JavaScript-only pages, both orderings; none = no rendering
                                                                                     default /usr/bin/chromium
  -h, --help        this text

Progress goes to stderr; the last stdout line is one JSON object with the results.`;

export class UsageError extends Error {}

export function parseBenchArgs(argv: string[]): BenchOptions | 'help' {
  const values = parseFlags(argv, {
    families: { type: 'string', default: '4' },
    jobs: { type: 'string', default: '50' },
    'latency-ms': { type: 'string', default: '50' },
    slots: { type: 'string', default: '4' },
    seed: { type: 'string', default: '1' },
    'timeout-s': { type: 'string', default: '240' },
    repeat: { type: 'string', default: '1' },
    order: { type: 'string', default: 'streaming-first' },
    baseline: { type: 'string', default: 'auto' },
    'keep-dbs': { type: 'boolean', default: false },
    'single-host': { type: 'boolean', default: false },
    browser: { type: 'string', default: '/usr/bin/chromium' },
  });
  if (values === 'help') return 'help';
  const order = values.order;
  if (order !== 'streaming-first' && order !== 'batch-first') throw new UsageError(`--order must be streaming-first or batch-first, got ${JSON.stringify(order)}`);
  const baseline = values.baseline;
  if (baseline !== 'auto' && baseline !== 'direct' && baseline !== 'workflow') throw new UsageError(`--baseline must be auto, direct or workflow, got ${JSON.stringify(baseline)}`);
  return {
    families: intFlag('families', values.families, 1, 4),
    jobs: intFlag('jobs', values.jobs, 1, 1000),
    latencyMs: intFlag('latency-ms', values['latency-ms'], 0, 10_000),
    slots: intFlag('slots', values.slots, 1, 64),
    seed: intFlag('seed', values.seed, 0, 2 ** 31 - 1),
    timeoutS: intFlag('timeout-s', values['timeout-s'], 1, 3600),
    repeat: intFlag('repeat', values.repeat, 1, 20),
    order: order === 'streaming-first' ? ['streaming', 'batch'] : ['batch', 'streaming'],
    baseline,
    keepDbs: values['keep-dbs'] ?? false,
    singleHost: values['single-host'] ?? false,
    browser: values.browser === 'none' || !values.browser ? null : values.browser,
  };
}

/**
 * A bench's flags as every bench takes them: flags only (an unknown flag or a positional is a usage
 * error, see parseOrExit), `-h`/`--help` besides the bench's own, which answers 'help'.
 */
export function parseFlags<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O): FlagValues<O> | 'help' {
  const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } });
  return (values as { help?: boolean }).help ? 'help' : (values as FlagValues<O>);
}

type FlagValues<O extends NonNullable<ParseArgsConfig['options']>> = ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: O }>>['values'];

/** An integer flag value in min..max, or a UsageError naming the flag. */
export function intFlag(name: string, raw: string | undefined, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer in ${min}..${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * For a bench's entry file: its parsed flags, or exit — 0 after printing the usage for --help, 64
 * (EX_USAGE) with the message and the usage for a bad flag (a UsageError or a node:util parseArgs error).
 */
export function parseOrExit<T>(parse: () => T | 'help', usage: string): T {
  try {
    const parsed = parse();
    if (parsed === 'help') {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return parsed;
  } catch (err) {
    const known = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known) throw err;
    process.stderr.write(`${(err as Error).message}\n\n${usage}\n`);
    process.exit(64); // EX_USAGE
  }
}

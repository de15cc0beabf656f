import { intFlag, parseFlags, UsageError } from './bench-args';

export interface ScaleOptions {
  /** Postings on the one board, one measured run per size, in this order. */
  sizes: number[];
  /** Postings of an unmeasured first run (0: none), so module loading and JIT warm-up do not land on the first size. */
  warmup: number;
  /** Simulator latency of every request. */
  latencyMs: number;
  /** The worker's remote activity slots. */
  slots: number;
  seed: number;
  /** Give up on one size after this long. */
  timeoutS: number;
  /** Chromium for JavaScript-only detail pages (null: not rendered; they end enrichment `failed` and are scored from the listing). */
  browser: string | null;
  /** Serve listing and detail pages from one simulator host (the old layout). */
  singleHost: boolean;
  /** Keep each size's SQLite database (paths in the JSON), e.g. for EXPLAIN QUERY PLAN. */
  keepDbs: boolean;
}

export const SCALE_USAGE = `Usage: npm run bench:scale -- [flags]

Discover + score over ONE board (lever) of N postings, for each N of --sizes: the product's
DiscoverWorkflow on an in-process worker, extractive scoring, no host spacing, a fresh database and
simulator per size. Prints jobs, wall ms and ms/job per size, and ms/job at the largest size divided
by ms/job at the smallest (the target is <= 1.5: cost per job must not grow with the job count).

  --sizes LIST      comma-separated postings per run, ascending                      default 100,1000,5000
  --warmup N        postings of an unmeasured run before the first size (0: none)    default 20
  --latency-ms MS   simulator latency per request                                    default 0
  --slots S         worker remote activity slots                                     default 4
  --seed N          simulator seed                                                   default 1
  --timeout-s S     give up on one size after S seconds                              default 900
  --browser PATH    Chromium for JavaScript-only pages, or none                       default none
  --single-host     detail pages on the listing host (default: a job-page host of their own)
  --keep-dbs        keep each size's SQLite database (paths in the JSON)
  -h, --help        this text

Progress goes to stderr; the last stdout line is one JSON object with the results.`;

export function parseScaleArgs(argv: string[]): ScaleOptions | 'help' {
  const values = parseFlags(argv, {
    sizes: { type: 'string', default: '100,1000,5000' },
    warmup: { type: 'string', default: '20' },
    'latency-ms': { type: 'string', default: '0' },
    slots: { type: 'string', default: '4' },
    seed: { type: 'string', default: '1' },
    'timeout-s': { type: 'string', default: '900' },
    browser: { type: 'string', default: 'none' },
    'single-host': { type: 'boolean', default: false },
    'keep-dbs': { type: 'boolean', default: false },
  });
  if (values === 'help') return 'help';
  const sizes = (values.sizes ?? '').split(',').map((s) => intFlag('sizes', s.trim(), 1, 20_000));
  if (sizes.length === 0) throw new UsageError('--sizes needs at least one size');
  return {
    sizes,
    warmup: intFlag('warmup', values.warmup, 0, 1000),
    latencyMs: intFlag('latency-ms', values['latency-ms'], 0, 10_000),
    slots: intFlag('slots', values.slots, 1, 64),
    seed: intFlag('seed', values.seed, 0, 2 ** 31 - 1),
    timeoutS: intFlag('timeout-s', values['timeout-s'], 1, 7200),
    browser: values.browser && values.browser !== 'none' ? values.browser : null,
    singleHost: values['single-host'] ?? false,
    keepDbs: values['keep-dbs'] ?? false,
  };
}

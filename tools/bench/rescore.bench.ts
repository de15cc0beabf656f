// `npm run bench:rescore`: a profile update re-preparing N stored jobs with the extractive provider,
// through the product path (what it measures: rescore-bench.runner.ts). Progress on stderr; the last
// stdout line is the JSON result.
import { defaultResolvedConfig } from '@jobctrl/shared/config';
import { intFlag, parseFlags } from './bench-args';
import { runBenchEntry } from './bench-entry';
import type { RescoreBenchOptions } from './rescore-bench.runner';

const DEFAULTS = defaultResolvedConfig().settings;

const USAGE = `Usage: npm run bench:rescore -- [flags]

Jobs per second of a profile update (PUT /v1/profile → the automatic Score → Tailor → Cover batch)
over N enriched, scored jobs with the extractive provider (no model calls), on a real worker with S
activity slots. The run snapshots pipeline_internal_concurrency C, as the product does.

  --jobs N          stored jobs to re-prepare                                        default 1000
  --slots S         worker remote activity slots (worker_activity_slots)             default ${DEFAULTS.worker_activity_slots}
  --concurrency C   pipeline_internal_concurrency (jobs in preparation at once)      default ${DEFAULTS.pipeline_internal_concurrency}
  --timeout-s T     give up after T seconds                                          default 900
  --no-breakdown    skip reading the histories afterwards (where the time went)
  --keep-db         keep the SQLite database for inspection (path in the JSON)
  -h, --help        this text

Progress goes to stderr; the last stdout line is one JSON object with the results.`;

function parse(argv: string[]): RescoreBenchOptions | 'help' {
  const values = parseFlags(argv, {
    jobs: { type: 'string', default: '1000' },
    slots: { type: 'string', default: String(DEFAULTS.worker_activity_slots) },
    concurrency: { type: 'string', default: String(DEFAULTS.pipeline_internal_concurrency) },
    'timeout-s': { type: 'string', default: '900' },
    'no-breakdown': { type: 'boolean', default: false },
    'keep-db': { type: 'boolean', default: false },
  });
  if (values === 'help') return 'help';
  return {
    jobs: intFlag('jobs', values.jobs, 1, 20_000),
    slots: intFlag('slots', values.slots, 1, 64),
    concurrency: intFlag('concurrency', values.concurrency, 1, 1000),
    timeoutS: intFlag('timeout-s', values['timeout-s'], 1, 24 * 3600),
    keepDb: values['keep-db'] ?? false,
    noBreakdown: values['no-breakdown'] ?? false,
  };
}

runBenchEntry({ usage: USAGE, parse, load: () => (require('./rescore-bench.runner') as typeof import('./rescore-bench.runner')).runRescoreBenchCommand });

// `npm run bench:prepare`: score → tailor → cover letter → review pair for N enriched jobs, through
// JobPipelineWorkflow on a real worker, against the LLM simulator (what it measures: prepare-bench.runner.ts).
// Progress on stderr; the last stdout line is the JSON result.
import { intFlag, parseFlags } from './bench-args';
import { runBenchEntry } from './bench-entry';
import type { PrepareBenchOptions } from './prepare-bench.runner';

const USAGE = `Usage: npm run bench:prepare -- [flags]

Wall time of the preparation stages (score, tailor, cover letter + factual/quality review pair) of N
enriched jobs, run by JobPipelineWorkflow on a real worker with S activity slots, against an LLM
simulator that answers every call after a fixed latency. Efficiency = (model calls × latency / S) / wall.

  --jobs N          enriched jobs to prepare                                         default 200
  --latency-ms L    simulator latency per model call                                 default 200
  --slots S         worker remote activity slots (worker_activity_slots)             default 4
  --concurrency C   jobs in preparation at once (the batch's internalConcurrency)    default 2 × S
  --timeout-s T     give up after T seconds                                          default 900
  --keep-db         keep the SQLite database for inspection (path in the JSON)
  -h, --help        this text

Progress goes to stderr; the last stdout line is one JSON object with the results.`;

function parse(argv: string[]): PrepareBenchOptions | 'help' {
  const values = parseFlags(argv, {
    jobs: { type: 'string', default: '200' },
    'latency-ms': { type: 'string', default: '200' },
    slots: { type: 'string', default: '4' },
    concurrency: { type: 'string' },
    'timeout-s': { type: 'string', default: '900' },
    'keep-db': { type: 'boolean', default: false },
  });
  if (values === 'help') return 'help';
  const slots = intFlag('slots', values.slots, 1, 64);
  return {
    jobs: intFlag('jobs', values.jobs, 1, 5000),
    latencyMs: intFlag('latency-ms', values['latency-ms'], 0, 60_000),
    slots,
    // Default 2 × S. A job holds an activity slot only while one of its activities runs; between two
    // activities (workflow task, spend preflight, scheduling) its slot would idle. With twice as many
    // jobs in flight as slots there is always a scheduled activity waiting to take a freed slot, so
    // the S slots stay busy; more only lengthens the queue (and every job's own latency). The batch
    // activity itself also holds one of the S slots for its whole duration.
    concurrency: values.concurrency === undefined ? 2 * slots : intFlag('concurrency', values.concurrency, 1, 1000),
    timeoutS: intFlag('timeout-s', values['timeout-s'], 1, 24 * 3600),
    keepDb: values['keep-db'] ?? false,
  };
}

runBenchEntry({ usage: USAGE, parse, load: () => (require('./prepare-bench.runner') as typeof import('./prepare-bench.runner')).runPrepareBenchCommand });

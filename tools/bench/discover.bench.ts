// `npm run bench:discover`: streaming DiscoverWorkflow vs. the same activities in batch order.
// See tools/bench/README.md. Progress on stderr; the last stdout line is the JSON result.
import { workerCapacity } from '@jobctrl/shared/temporal';
import { BenchOptions, parseBenchArgs, USAGE, UsageError } from './bench-args';

function parseOrExit(): BenchOptions {
  try {
    const parsed = parseBenchArgs(process.argv.slice(2));
    if (parsed === 'help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    return parsed;
  } catch (err) {
    const known = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known) throw err;
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    process.exit(64); // EX_USAGE
  }
}

const options = parseOrExit();
// As in apps/worker/src/main.ts: libuv's pool is sized before its first use, from the worker's slots.
if (!process.env['UV_THREADPOOL_SIZE']) process.env['UV_THREADPOOL_SIZE'] = String(workerCapacity(options.slots).uvThreadpoolSize);

// Loaded only now, after the thread pool size is fixed.
const { runBenchCommand } = require('./discover-bench.runner') as typeof import('./discover-bench.runner');
runBenchCommand(options);

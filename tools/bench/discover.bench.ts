// `npm run bench:discover`: streaming DiscoverWorkflow vs. the same activities in batch order.
// See tools/bench/README.md. Progress on stderr; the last stdout line is the JSON result.
import { workerCapacity } from '@jobctrl/shared/temporal';
import { parseBenchArgs, parseOrExit, USAGE } from './bench-args';

const options = parseOrExit(() => parseBenchArgs(process.argv.slice(2)), USAGE);
// As in apps/worker/src/main.ts: libuv's pool is sized before its first use, from the worker's slots.
if (!process.env['UV_THREADPOOL_SIZE']) process.env['UV_THREADPOOL_SIZE'] = String(workerCapacity(options.slots).uvThreadpoolSize);

// Loaded only now, after the thread pool size is fixed.
const { runBenchCommand } = require('./discover-bench.runner') as typeof import('./discover-bench.runner');
runBenchCommand(options);

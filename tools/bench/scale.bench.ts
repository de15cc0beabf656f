// `npm run bench:scale`: discover + score over one board of 100, 1,000 and 5,000 postings; ms/job per
// size and the ratio of the largest to the smallest. See tools/bench/README.md. Progress on stderr;
// the last stdout line is the JSON result.
import { workerCapacity } from '@jobctrl/shared/temporal';
import { parseScaleArgs, SCALE_USAGE } from './scale-bench.args';
import { parseOrExit } from './bench-args';

const options = parseOrExit(() => parseScaleArgs(process.argv.slice(2)), SCALE_USAGE);
// As in apps/worker/src/main.ts: libuv's pool is sized before its first use, from the worker's slots.
if (!process.env['UV_THREADPOOL_SIZE']) process.env['UV_THREADPOOL_SIZE'] = String(workerCapacity(options.slots).uvThreadpoolSize);

// Loaded only now, after the thread pool size is fixed.
const { runScaleCommand } = require('./scale-bench.runner') as typeof import('./scale-bench.runner');
runScaleCommand(options);

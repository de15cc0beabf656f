// `npm run bench:discover`: streaming DiscoverWorkflow vs. the same activities in batch order.
// See tools/bench/README.md. Progress on stderr; the last stdout line is the JSON result.
import { parseBenchArgs, USAGE } from './bench-args';
import { runBenchEntry } from './bench-entry';

runBenchEntry({ usage: USAGE, parse: parseBenchArgs, load: () => (require('./discover-bench.runner') as typeof import('./discover-bench.runner')).runBenchCommand });
